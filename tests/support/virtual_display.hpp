#pragma once
// A private X display for window tests: starts Xvfb on a free display number (Xvfb picks it and
// writes it to a pipe, so parallel tests never collide), points DISPLAY at it, and stops it when the
// test ends. Lavapipe presents to it through its X11 surface, so window tests run with no screen.
// Without Xvfb the test uses the DISPLAY it was given; with neither it fails saying what to install.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>

#include <cerrno>
#include <cstdlib>
#include <string>

namespace mf::testing {

class VirtualDisplay {
 public:
  VirtualDisplay() {
    if (::access("/usr/bin/Xvfb", X_OK) != 0) {
      if (!std::getenv("DISPLAY"))
        error_ = "window tests need Xvfb (Debian: xvfb, installed by scripts/setup.sh) or a DISPLAY";
      return;
    }
    int fds[2];
    if (::pipe(fds) != 0) {
      error_ = "pipe() failed";
      return;
    }
    pid_ = ::fork();
    if (pid_ == 0) {
      ::close(fds[0]);
      const std::string fd = std::to_string(fds[1]);
      // Quiet: Xvfb's start-up chatter (missing fonts, xkb) is not the test's concern.
      const int null = ::open("/dev/null", O_WRONLY);
      if (null >= 0) {
        ::dup2(null, 1);
        ::dup2(null, 2);
      }
      ::execl("/usr/bin/Xvfb", "Xvfb", "-displayfd", fd.c_str(), "-screen", "0", "1024x768x24", "-nolisten", "tcp",
              "-noreset", static_cast<char*>(nullptr));
      ::_exit(127);
    }
    ::close(fds[1]);
    if (pid_ < 0) {
      ::close(fds[0]);
      error_ = "fork() failed";
      return;
    }
    // Xvfb writes the display number and a newline once it accepts connections.
    std::string number;
    char c = 0;
    ssize_t got = 0;
    while ((got = ::read(fds[0], &c, 1)) == 1 && c != '\n') number += c;
    ::close(fds[0]);
    if (number.empty()) {
      error_ = "Xvfb did not start";
      stop();
      return;
    }
    display_ = ":" + number;
    ::setenv("DISPLAY", display_.c_str(), 1);
    ::unsetenv("WAYLAND_DISPLAY");
  }
  ~VirtualDisplay() { stop(); }
  VirtualDisplay(const VirtualDisplay&) = delete;
  VirtualDisplay& operator=(const VirtualDisplay&) = delete;

  // Empty when a display is ready.
  const std::string& error() const { return error_; }
  const std::string& display() const { return display_; }

 private:
  void stop() {
    if (pid_ <= 0) return;
    ::kill(pid_, SIGTERM);
    int status = 0;
    while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
    }
    pid_ = -1;
  }

  pid_t pid_ = -1;
  std::string display_;
  std::string error_;
};

}  // namespace mf::testing
