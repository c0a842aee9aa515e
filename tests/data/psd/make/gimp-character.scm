; Draws a small layered character in GIMP 2.10 and exports it as PSD, once per precision.
; Run from the repository root (see README.md):
;   gimp-console-2.10 -i -d -f -b '(load "tests/data/psd/make/gimp-character.scm")' -b '(gimp-quit 0)'
;
; The file exercises what an artist's PSD holds: nested groups named like bones, Spine's PSD-script
; tags, hidden layers and a hidden group, a collapsed group, layer and group opacity, blend modes the
; rig can express (multiply, screen, addition) and one it cannot (overlay), layers reaching past the
; canvas edges, and anti-aliased edges and gradients (so 16-bit files hold values that are not
; multiples of 257).

(define (insert img layer parent)            ; on top of its parent's children
  (gimp-image-insert-layer img layer parent 0)
  layer)

(define (group img parent name)
  (let ((g (car (gimp-layer-group-new img))))
    (gimp-item-set-name g name)
    (insert img g parent)))

(define (pixel-layer img parent name x y w h)
  (let ((l (car (gimp-layer-new img w h RGBA-IMAGE name 100 LAYER-MODE-NORMAL))))
    (insert img l parent)
    (gimp-layer-set-offsets l x y)
    l))

; A blend mode as Photoshop means it: blended in perceptual RGB, and composited as a union (GIMP
; 2.10's default for its modes clips a layer to what lies below it, so a multiply layer over
; transparency would be missing from the merged image GIMP writes into the file).
(define (set-psd-mode layer mode)
  (gimp-layer-set-mode layer mode)
  (gimp-layer-set-blend-space layer LAYER-COLOR-SPACE-RGB-PERCEPTUAL)
  (gimp-layer-set-composite-space layer LAYER-COLOR-SPACE-RGB-PERCEPTUAL)
  (gimp-layer-set-composite-mode layer LAYER-COMPOSITE-UNION))

(define (fill-selection layer colour)
  (gimp-context-set-foreground colour)
  (gimp-drawable-edit-fill layer FILL-FOREGROUND)
  (gimp-selection-none (car (gimp-item-get-image layer))))

; A linear gradient from `from` at (x1, y1) to `to` at (x2, y2) over the selection; the points are in
; the layer's own pixels, not the canvas's.
(define (gradient-selection layer from to x1 y1 x2 y2)
  (gimp-context-set-foreground from)
  (gimp-context-set-background to)
  (gimp-context-set-gradient-fg-bg-rgb)
  (gimp-drawable-edit-gradient-fill layer GRADIENT-LINEAR 0 FALSE 1 0 FALSE x1 y1 x2 y2)
  (gimp-selection-none (car (gimp-item-get-image layer))))

(define (ellipse-layer img parent name x y w h colour)
  (let ((l (pixel-layer img parent name x y w h)))
    (gimp-image-select-ellipse img CHANNEL-OP-REPLACE x y w h)
    (fill-selection l colour)
    l))

(define (limb-layer img parent name x y w h from to)
  (let ((l (pixel-layer img parent name x y w h)))
    (gimp-image-select-round-rectangle img CHANNEL-OP-REPLACE (+ x 1) (+ y 1) (- w 2) (- h 2) 5 5)
    (gradient-selection l from to 0 0 0 h)
    l))

(define (make-character precision path)
  (let* ((img (car (gimp-image-new-with-precision 128 160 RGB precision))))
    (gimp-context-push)
    (gimp-context-set-antialias TRUE)
    (gimp-context-set-feather FALSE)
    (gimp-context-set-opacity 100)
    (gimp-context-set-paint-mode LAYER-MODE-NORMAL)

    ; Bottom-most first: each layer is inserted on top of those before it.
    (ellipse-layer img 0 "[origin]" 62 152 4 4 '(255 0 255))
    (let ((shadow (ellipse-layer img 0 "Shadow" 30 146 68 12 '(40 30 60))))
      (set-psd-mode shadow LAYER-MODE-MULTIPLY)
      (gimp-layer-set-opacity shadow 60))

    (let* ((body (group img 0 "Body"))
           (leg-l (group img body "Leg L"))
           (leg-r (group img body "Leg R")))
      (limb-layer img leg-l "Thigh L [mesh]" 44 96 16 34 '(60 66 96) '(90 96 140))
      (limb-layer img leg-l "Shin L" 45 124 14 32 '(60 66 96) '(120 130 170))
      (limb-layer img leg-r "Thigh R [mesh]" 68 96 16 34 '(60 66 96) '(90 96 140))
      ; Reaches 8 px past the bottom edge of the canvas.
      (limb-layer img leg-r "Shin R" 69 124 14 44 '(60 66 96) '(120 130 170))
      (let ((torso (pixel-layer img body "Torso [mesh]" 40 52 48 52)))
        (gimp-image-select-round-rectangle img CHANNEL-OP-REPLACE 41 53 46 50 14 14)
        (gradient-selection torso '(63 127 209) '(20 60 120) 0 0 48 52))
      (let ((normal (ellipse-layer img body "Torso [normal]" 40 52 48 52 '(128 128 255))))
        (gimp-item-set-visible normal FALSE))
      (let* ((arm-l (group img body "Arm L")))
        (limb-layer img arm-l "Upper" 22 56 22 12 '(63 127 209) '(40 90 160))
        ; Reaches 6 px past the left edge of the canvas.
        (limb-layer img arm-l "Lower" -6 58 30 10 '(242 194 155) '(200 150 120))
        (gimp-layer-set-opacity arm-l 80))
      (let* ((head (group img body "Head")))
        (ellipse-layer img head "Face" 42 10 44 44 '(242 194 155))
        (let* ((eyes (group img head "[slot] Eyes")))
          (ellipse-layer img eyes "Open" 52 24 24 10 '(42 32 48))
          (let ((closed (pixel-layer img eyes "Closed" 52 27 24 4)))
            (gimp-image-select-rectangle img CHANNEL-OP-REPLACE 52 28 24 2)
            (fill-selection closed '(42 32 48))
            (gimp-item-set-visible closed FALSE)))
        (let ((blush (ellipse-layer img head "Blush" 46 34 36 12 '(240 100 110))))
          (set-psd-mode blush LAYER-MODE-OVERLAY)
          (gimp-layer-set-opacity blush 70))
        (gimp-item-set-expanded head FALSE))
      (limb-layer img body "Arm R [bone]" 84 56 48 12 '(63 127 209) '(242 194 155)))

    (let* ((skin (group img 0 "[skin] red")))
      (limb-layer img skin "Torso" 40 52 48 52 '(216 58 58) '(120 20 30))
      (gimp-item-set-visible skin FALSE))

    (let* ((belt (group img 0 "[merge] Belt")))
      (limb-layer img belt "Band" 40 92 48 8 '(90 58 34) '(60 40 20))
      (ellipse-layer img belt "Buckle" 58 91 12 10 '(224 176 64)))

    (let ((glow (ellipse-layer img 0 "Glow" 20 0 88 64 '(90 90 40))))
      (set-psd-mode glow LAYER-MODE-SCREEN)
      (gimp-layer-set-opacity glow 50))
    (let ((spark (ellipse-layer img 0 "Spark" 100 8 20 20 '(120 80 20))))
      (set-psd-mode spark LAYER-MODE-ADDITION))
    (let ((notes (pixel-layer img 0 "[ignore] Notes" 0 0 40 12)))
      (gimp-image-select-rectangle img CHANNEL-OP-REPLACE 0 0 40 12)
      (fill-selection notes '(255 255 200)))

    (file-psd-save RUN-NONINTERACTIVE img (car (gimp-image-get-active-layer img)) path path 1 0)
    (gimp-image-delete img)
    (gimp-context-pop)))

(make-character PRECISION-U8-GAMMA "tests/data/psd/gimp-character-8.psd")
(make-character PRECISION-U16-GAMMA "tests/data/psd/gimp-character-16.psd")
