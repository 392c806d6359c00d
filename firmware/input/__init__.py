# Input layer: pin levels in, debounced key events out (Buttons in .buttons, Keypad in .keypad).
