; Opens the character PSDs that gimp-character.scm wrote, edits them as an artist would between two
; imports, and exports the result as new files (the re-import test reads both versions):
;   - "Arm R [bone]" moves 5 px right and 3 px up (its bounds move; its pixels do not change);
;   - "Face" is repainted: a mouth (a 12x4 px red rectangle) is filled into it (its pixels change,
;     its bounds do not).
; Run from the repository root after gimp-character.scm (see README.md):
;   gimp-console-2.10 -i -d -f -b '(load "tests/data/psd/make/gimp-character-edit.scm")' -b '(gimp-quit 0)'

(define (edit-character in-path out-path)
  (let* ((img (car (file-psd-load RUN-NONINTERACTIVE in-path in-path)))
         (arm (car (gimp-image-get-layer-by-name img "Arm R [bone]")))
         (face (car (gimp-image-get-layer-by-name img "Face")))
         (arm-xy (gimp-drawable-offsets arm)))
    (gimp-context-push)
    (gimp-context-set-antialias FALSE)
    (gimp-context-set-feather FALSE)
    (gimp-context-set-opacity 100)
    (gimp-context-set-paint-mode LAYER-MODE-NORMAL)
    (gimp-layer-set-offsets arm (+ (car arm-xy) 5) (- (cadr arm-xy) 3))
    (gimp-image-select-rectangle img CHANNEL-OP-REPLACE 58 42 12 4)
    (gimp-context-set-foreground '(170 40 50))
    (gimp-drawable-edit-fill face FILL-FOREGROUND)
    (gimp-selection-none img)
    (file-psd-save RUN-NONINTERACTIVE img face out-path out-path 1 0)
    (gimp-image-delete img)
    (gimp-context-pop)))

(edit-character "tests/data/psd/gimp-character-8.psd" "tests/data/psd/gimp-character-8-edited.psd")
(edit-character "tests/data/psd/gimp-character-16.psd" "tests/data/psd/gimp-character-16-edited.psd")
