; Script-Fu for GIMP 2.10 (batch mode): the layered test art of the art import, written as PSDs by
; GIMP's own exporter. Run through make_psds.sh.

(define (art-layer img parent name x y w h color opacity mode visible)
  (let* ((layer (car (gimp-layer-new img w h RGBA-IMAGE name opacity mode))))
    (gimp-image-insert-layer img layer parent 0)
    (gimp-layer-set-offsets layer x y)
    (gimp-context-set-foreground color)
    (gimp-drawable-edit-fill layer FILL-FOREGROUND)
    (gimp-item-set-visible layer visible)
    layer))

(define (art-group img parent name visible)
  (let* ((group (car (gimp-layer-group-new img))))
    (gimp-item-set-name group name)
    (gimp-image-insert-layer img group parent 0)
    (gimp-item-set-visible group visible)
    group))

; A 64 x 96 character. `edited` (#t or #f: GIMP's FALSE is 0, which `if` takes as true): the torso
; moved by (3, -2), the head repainted, a hat added and the shadow removed, as an artist would
; between two imports.
(define (hero-psd file bits compression edited)
  (let* ((img (car (gimp-image-new 64 96 RGB))))
    ; Inserted bottom-most first: each new layer goes on top of its group.
    (art-layer img 0 "Background [ignore]" 0 0 64 96 '(128 128 128) 100 LAYER-MODE-NORMAL TRUE)
    (if (not edited)
        (art-layer img 0 "Shadow" 16 90 32 4 '(0 0 0) 60 LAYER-MODE-NORMAL FALSE))
    (let* ((body (art-group img 0 "Body" TRUE)))
      (art-layer img body "Torso" (if edited 23 20) (if edited 38 40) 24 32 '(200 30 30) 100 LAYER-MODE-NORMAL TRUE)
      (art-layer img body "Arm [bone]" 44 44 8 20 '(30 200 30) 50 LAYER-MODE-NORMAL TRUE)
      (let* ((eyes (art-group img body "[slot] Eyes" TRUE)))
        (art-layer img eyes "Closed" 26 16 12 2 '(0 0 0) 100 LAYER-MODE-NORMAL FALSE)
        (art-layer img eyes "Open" 26 14 12 4 '(250 250 250) 100 LAYER-MODE-NORMAL TRUE)))
    (art-layer img 0 "Head" 22 8 20 20 (if edited '(220 180 40) '(40 40 220)) 100 LAYER-MODE-MULTIPLY TRUE)
    (art-layer img 0 "[normal] Head" 22 8 20 10 '(100 150 255) 100 LAYER-MODE-NORMAL FALSE)
    (let* ((hair (art-group img 0 "[merge] Hair" TRUE)))
      (art-layer img hair "Back" 20 4 24 8 '(60 30 10) 100 LAYER-MODE-NORMAL TRUE)
      (art-layer img hair "Front" 24 4 16 4 '(250 220 120) 50 LAYER-MODE-NORMAL TRUE))
    (let* ((red (art-group img 0 "[skin] red" FALSE)))
      (art-layer img red "Torso" 20 40 24 32 '(120 0 0) 100 LAYER-MODE-NORMAL TRUE))
    (art-layer img 0 "Glow [mesh]" 16 2 32 6 '(250 250 0) 100 LAYER-MODE-ADDITION TRUE)
    (if edited
        (art-layer img 0 "Hat" 22 0 20 6 '(20 20 20) 100 LAYER-MODE-NORMAL TRUE))
    (art-layer img 0 "[origin]" 31 93 2 2 '(255 0 255) 100 LAYER-MODE-NORMAL TRUE)
    (if (= bits 16) (gimp-image-convert-precision img PRECISION-U16-GAMMA))
    (file-psd-save RUN-NONINTERACTIVE img (car (gimp-image-get-active-drawable img)) file file compression 0)
    (gimp-image-delete img)))

(hero-psd "hero.psd" 8 1 #f)
(hero-psd "hero16.psd" 16 0 #f)
(hero-psd "hero_edited.psd" 8 1 #t)
