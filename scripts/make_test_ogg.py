#!/usr/bin/env python3
"""Writes a small Ogg Vorbis test file: a sine tone, mono or stereo, through the system's libvorbis,
libvorbisenc and libogg (Debian: libvorbis0a, libvorbisenc2, libogg0) driven by ctypes, so no
encoder program or Python package is needed.

  scripts/make_test_ogg.py OUT.ogg [--rate 22050] [--channels 1] [--seconds 0.5] [--frequency 440]
                           [--serial 1234] [--page-per-chunk]

Channel 0 holds the tone, every other channel the tone inverted. Files with different serial numbers
can be concatenated into a chained stream. --page-per-chunk ends an Ogg page after every 1024 frames
(many small pages, for tests that remove one).
"""
import argparse
import ctypes
import ctypes.util
import math
import sys


def load(name, soname):
    path = ctypes.util.find_library(name) or soname
    return ctypes.CDLL(path)


class OggPage(ctypes.Structure):
    _fields_ = [("header", ctypes.POINTER(ctypes.c_ubyte)), ("header_len", ctypes.c_long),
                ("body", ctypes.POINTER(ctypes.c_ubyte)), ("body_len", ctypes.c_long)]


class OggPacket(ctypes.Structure):
    _fields_ = [("packet", ctypes.POINTER(ctypes.c_ubyte)), ("bytes", ctypes.c_long), ("b_o_s", ctypes.c_long),
                ("e_o_s", ctypes.c_long), ("granulepos", ctypes.c_int64), ("packetno", ctypes.c_int64)]


def opaque(size=4096):
    # libvorbis and libogg's state structs, zeroed and larger than any of them; only their addresses
    # are passed.
    return ctypes.create_string_buffer(size)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("out")
    parser.add_argument("--rate", type=int, default=22050)
    parser.add_argument("--channels", type=int, default=1, choices=range(1, 9))
    parser.add_argument("--seconds", type=float, default=0.5)
    parser.add_argument("--frequency", type=float, default=440.0)
    parser.add_argument("--quality", type=float, default=0.4)
    parser.add_argument("--serial", type=int, default=1234)
    parser.add_argument("--page-per-chunk", action="store_true")
    args = parser.parse_args()

    ogg = load("ogg", "libogg.so.0")
    vorbis = load("vorbis", "libvorbis.so.0")
    enc = load("vorbisenc", "libvorbisenc.so.2")
    vorbis.vorbis_analysis_buffer.restype = ctypes.POINTER(ctypes.POINTER(ctypes.c_float))

    vi, vc, vd, vb, os_ = opaque(), opaque(), opaque(), opaque(), opaque(16384)
    vorbis.vorbis_info_init(vi)
    if enc.vorbis_encode_init_vbr(vi, ctypes.c_long(args.channels), ctypes.c_long(args.rate),
                                  ctypes.c_float(args.quality)) != 0:
        sys.exit("libvorbisenc refused the settings")
    vorbis.vorbis_comment_init(vc)
    vorbis.vorbis_analysis_init(vd, vi)
    vorbis.vorbis_block_init(vd, vb)
    ogg.ogg_stream_init(os_, args.serial)

    out = open(args.out, "wb")
    page = OggPage()

    def write_pages(flush):
        step = ogg.ogg_stream_flush if flush else ogg.ogg_stream_pageout
        while step(os_, ctypes.byref(page)) != 0:
            out.write(ctypes.string_at(page.header, page.header_len))
            out.write(ctypes.string_at(page.body, page.body_len))

    header, comment, code = OggPacket(), OggPacket(), OggPacket()
    vorbis.vorbis_analysis_headerout(vd, vc, ctypes.byref(header), ctypes.byref(comment), ctypes.byref(code))
    for packet in (header, comment, code):
        ogg.ogg_stream_packetin(os_, ctypes.byref(packet))
    write_pages(flush=True)

    frames = int(round(args.seconds * args.rate))
    chunk = 1024
    done = 0
    packet = OggPacket()
    while True:
        n = min(chunk, frames - done)
        if n > 0:
            buffers = vorbis.vorbis_analysis_buffer(vd, ctypes.c_int(n))
            for i in range(n):
                value = 0.5 * math.sin(2 * math.pi * args.frequency * (done + i) / args.rate)
                for c in range(args.channels):
                    buffers[c][i] = value if c == 0 else -value
            vorbis.vorbis_analysis_wrote(vd, ctypes.c_int(n))
            done += n
        else:
            vorbis.vorbis_analysis_wrote(vd, ctypes.c_int(0))  # end of stream
        while vorbis.vorbis_analysis_blockout(vd, vb) == 1:
            vorbis.vorbis_analysis(vb, None)
            vorbis.vorbis_bitrate_addblock(vb)
            while vorbis.vorbis_bitrate_flushpacket(vd, ctypes.byref(packet)) == 1:
                ogg.ogg_stream_packetin(os_, ctypes.byref(packet))
                write_pages(flush=False)
        if args.page_per_chunk:
            write_pages(flush=True)
        if n <= 0:
            break
    write_pages(flush=True)
    out.close()

    ogg.ogg_stream_clear(os_)
    vorbis.vorbis_block_clear(vb)
    vorbis.vorbis_dsp_clear(vd)
    vorbis.vorbis_comment_clear(vc)
    vorbis.vorbis_info_clear(vi)


if __name__ == "__main__":
    main()
