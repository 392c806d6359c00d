// The scoreboard's other devices for periph.mjs, modelled from what goes over their wires:
//
//   SH1106      128x64 OLED at 0x3C on I2C0: 132 columns of RAM, page addressing only (0xB0|page,
//               column nibbles 0x00|lo, 0x10|hi), the panel shows RAM columns 2..129; the
//               SSD1306-only commands the shared init sends (0x20, 0x21, 0x22, 0x8D...) are not in
//               its command set and do nothing (their argument bytes are then read as commands of
//               their own, as on the chip).
//   HD44780     character LCD (20x4, 16x2) behind a PCF8574 backpack at 0x27: each byte written
//               to the PCF8574 sets its port (P0 RS, P1 RW, P2 E, P3 backlight, P4-P7 D4-D7); a
//               falling edge of E with RW low latches a nibble (8-bit mode at power-on, 4-bit
//               after the function set), DDRAM (80 bytes, the two-line map), CGRAM (8 glyphs),
//               entry mode, display on/off, cursor/shift; instructions arriving while the last
//               one still executes (1.52 ms clear/home, 37 us others) are counted as busy
//               violations (the firmware never reads the busy flag).
//   MAX7219     chains on SPI0: every byte on MOSI shifts through the chain's 16-bit registers
//               (the MAX7219 shifts whatever LOAD does); a rising edge of the chain's LOAD (CS)
//               pin latches each chip's register: digits 1-8, decode mode, intensity, scan
//               limit, shutdown, display test. Chips are listed from the farthest from DIN.
//   NeoPixelRx  WS2812B data on a pin: the high time of each pulse gives a bit (< 0.625 us 0,
//               else 1), 8 bits a byte, MSB first; a low of 50 us or more latches the frame
//               (bytes as sent: G R B per pixel).
//   ToneRx      a square wave on a pin (a PWM slice driving a piezo buzzer): each run of edges
//               at one period is a tone, its frequency the rising edges per time, its duty the
//               high time per time; it ends at its last falling edge once the pin has held still
//               for 4 periods (at least 2 ms), or where the period changes by more than 5%.

const PAGES = 8;

// ------------------------------------------------------------------ OLED controllers' I2C side
// What the SSD1306 (periph.mjs) and the SH1106 share: an I2C write is a control byte (Co: one
// byte, then another control byte; D/C: data or commands), then data bytes (this.data(b)) or
// command bytes, each opcode followed by its argument bytes (this.argc: how many each takes),
// then this.apply(op, args); and the panel: a width x height glass over a RAM ramW columns wide
// whose column colOffset is the glass's first (SH1106: 132 and 2; SSD1306: 128 and 0).
export class OledI2c {
  constructor(width, height, ramW, colOffset) {
    this.width = width;
    this.height = height;
    this.ramW = ramW;
    this.colOffset = colOffset;
    this.ram = new Uint8Array(ramW * PAGES);
  }

  // The reset state both controllers share (each sets its contrast and the rest of its own).
  powerOn() {
    this.ram.fill(0);
    this.on = false;
    this.inverse = false;
    this.entireOn = false;
    this.mode = 2; // page addressing
    this.col = 0;
    this.page = 0;
    this.startLine = 0;
    this.offset = 0;
    this.segRemap = false;
    this.comRev = false;
    this.op = -1; // command waiting for argument bytes
    this.args = [];
    this.ctrl = true; // next byte is a control byte
    this.dc = 0;
    this.co = 0;
    this.cmds = 0;
    this.unknown = 0;
  }

  status() {
    return this.on ? 0x00 : 0x40; // D6: display off
  }

  ramPixel(col, row) {
    return (this.ram[(row >> 3) * this.ramW + col] >> (row & 7)) & 1;
  }

  // What the panel shows at (x, y), for a module mounted the usual way: the micropython-lib
  // drivers' A1 (segment remap) and C8 (COM scan from COM63) give the RAM's own orientation;
  // A0 / C0 mirror it.
  panelPixel(x, y) {
    if (!this.on) return 0; // display off: a dark panel
    if (this.entireOn) return 1;
    const cx = this.segRemap ? x + this.colOffset : this.ramW - 1 - this.colOffset - x;
    let row = this.comRev ? y : this.height - 1 - y;
    row = (row + this.startLine + this.offset) & 63;
    const p = this.ramPixel(cx, row);
    return this.inverse ? p ^ 1 : p;
  }

  lit() {
    let n = 0;
    for (let i = 0; i < this.ram.length; i++) {
      let v = this.ram[i];
      while (v) { n += v & 1; v >>= 1; }
    }
    return n;
  }

  text(raw) {
    const lines = [];
    for (let y = 0; y < this.height; y++) {
      let s = '';
      for (let x = 0; x < this.width; x++) {
        s += (raw ? this.ramPixel(x + this.colOffset, y) : this.panelPixel(x, y)) ? '#' : '.';
      }
      lines.push(s);
    }
    return lines;
  }

  // one I2C write transaction addressed to us: start(), byte()..., stop()
  start() {
    this.ctrl = true;
  }

  byte(b) {
    if (this.ctrl) {
      this.co = b & 0x80;
      this.dc = b & 0x40;
      this.ctrl = false;
      return 'ctrl';
    }
    if (this.co) this.ctrl = true; // Co=1: one byte, then another control byte
    if (this.dc) {
      this.data(b);
      return 'data';
    }
    this.command(b);
    return 'cmd';
  }

  command(b) {
    if (this.op >= 0) {
      this.args.push(b);
      if (this.args.length >= this.argc[this.op]) {
        const op = this.op;
        this.op = -1;
        this.apply(op, this.args);
        this.args = [];
      }
      return;
    }
    if (this.argc[b]) {
      this.op = b;
      this.args = [];
      return;
    }
    this.apply(b, []);
  }
}

// ------------------------------------------------------------------ SH1106
// Argument bytes after each SH1106 command opcode (the rest take none).
const SH_ARGS = { 0x81: 1, 0xa8: 1, 0xad: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 };

export class SH1106 extends OledI2c {
  constructor(width = 128, height = 64) {
    super(width, height, 132, 2);
    this.argc = SH_ARGS;
    this.kind = 'sh1106';
    this.powerOn();
  }

  powerOn() {
    super.powerOn(); // page addressing is its only mode
    this.contrast = 0x80;
  }

  data(b) {
    if (this.col < this.ramW) this.ram[this.page * this.ramW + this.col] = b;
    if (this.col < this.ramW - 1) this.col++; // the column address stops at 131
  }

  apply(op, a) {
    this.cmds++;
    if (op <= 0x0f) { this.col = (this.col & 0xf0) | op; return; }
    if (op <= 0x1f) { this.col = ((op & 0x0f) << 4) | (this.col & 0x0f); return; }
    if (op >= 0x30 && op <= 0x33) return; // pump voltage
    if (op >= 0x40 && op <= 0x7f) { this.startLine = op & 0x3f; return; }
    if (op >= 0xb0 && op <= 0xb7) { this.page = op & 7; return; }
    switch (op) {
      case 0x81: this.contrast = a[0]; return;
      case 0xa0: case 0xa1: this.segRemap = !!(op & 1); return;
      case 0xa4: case 0xa5: this.entireOn = !!(op & 1); return;
      case 0xa6: case 0xa7: this.inverse = !!(op & 1); return;
      case 0xae: case 0xaf: this.on = !!(op & 1); return;
      case 0xc0: case 0xc8: this.comRev = !!(op & 8); return;
      case 0xd3: this.offset = a[0] & 0x3f; return;
      case 0xa8: case 0xad: case 0xd5: case 0xd9: case 0xda: case 0xdb: return;
      case 0xe0: case 0xee: case 0xe3: return; // read-modify-write, end, NOP
    }
    this.unknown++; // not an SH1106 command (SSD1306 ones: 0x20-0x22, 0x8D...): ignored
  }
}

// ------------------------------------------------------------------ PCF8574 + HD44780
const RS = 0x01;
const RW = 0x02;
const EN = 0x04;
const BL = 0x08;

export class Lcd {
  constructor(cols = 20, rows = 4) {
    this.kind = cols === 16 ? 'lcd16' : 'lcd20';
    this.cols = cols;
    this.rows = rows;
    this.ddram = new Uint8Array(128).fill(0x20);
    this.cgram = new Uint8Array(64);
    this.port = 0xff; // a PCF8574's pins after power-on: high (weak pull-ups)
    this.ac = 0;
    this.toCgram = false;
    this.inc = 1;
    this.displayOn = false;
    this.cursor = false;
    this.blink = false;
    this.twoLines = false;
    this.fourBit = false;
    this.shift = 0;
    this.hi = -1;
    this.busyUntil = 0; // ns
    this.busyViolations = 0;
    this.instructions = 0;
    this.dataWrites = 0;
    this.pcfWrites = 0;
    this.cmds = 0;
    this.unknown = 0;
    this.now = () => 0; // ns, set by the board
  }

  start() {}

  // one byte written to the PCF8574: its port; E falling with RW low latches a nibble
  byte(b) {
    const prev = this.port;
    this.port = b;
    this.pcfWrites++;
    if (prev & EN && !(b & EN) && !(prev & RW)) this.nibble(prev >> 4, prev & RS);
    return 'data';
  }

  status() {
    return this.port; // a read gives the port (the firmware never reads)
  }

  get backlight() {
    return !!(this.port & BL);
  }

  nibble(nib, rs) {
    if (!this.fourBit) {
      this.exec(nib << 4, rs); // 8-bit mode: D0-D3 are not wired (low)
      return;
    }
    if (this.hi < 0) {
      this.hi = nib;
      return;
    }
    const v = (this.hi << 4) | nib;
    this.hi = -1;
    this.exec(v, rs);
  }

  exec(v, rs) {
    const t = this.now();
    if (t < this.busyUntil) this.busyViolations++;
    let busy = 37000;
    if (rs) {
      this.dataWrites++;
      if (this.toCgram) {
        this.cgram[this.ac & 0x3f] = v & 0x1f;
        this.ac = (this.ac + this.inc) & 0x3f;
      } else {
        this.ddram[this.ac & 0x7f] = v;
        this.step(this.inc);
      }
      this.busyUntil = t + 41000;
      return;
    }
    this.instructions++;
    this.cmds++;
    if (v & 0x80) {
      this.ac = v & 0x7f;
      this.toCgram = false;
    } else if (v & 0x40) {
      this.ac = v & 0x3f;
      this.toCgram = true;
    } else if (v & 0x20) {
      this.fourBit = !(v & 0x10);
      this.twoLines = !!(v & 0x08);
      this.hi = -1;
    } else if (v & 0x10) {
      const right = v & 0x04 ? 1 : -1;
      if (v & 0x08) this.shift += right;
      else this.step(right);
    } else if (v & 0x08) {
      this.displayOn = !!(v & 0x04);
      this.cursor = !!(v & 0x02);
      this.blink = !!(v & 0x01);
    } else if (v & 0x04) {
      this.inc = v & 0x02 ? 1 : -1;
    } else if (v & 0x02) {
      this.ac = 0;
      this.toCgram = false;
      this.shift = 0;
      busy = 1520000;
    } else if (v & 0x01) {
      this.ddram.fill(0x20);
      this.ac = 0;
      this.toCgram = false;
      this.inc = 1;
      this.shift = 0;
      busy = 1520000;
    } else {
      this.unknown++;
    }
    this.busyUntil = t + busy;
  }

  step(d) {
    let a = this.ac + d;
    if (this.twoLines) { // DDRAM 0x00-0x27 and 0x40-0x67
      if (a === 0x28) a = 0x40;
      else if (a === 0x68) a = 0x00;
      else if (a === 0x3f) a = 0x27;
      else if (a === -1) a = 0x67;
    } else {
      a = ((a % 0x50) + 0x50) % 0x50;
    }
    this.ac = a & 0x7f;
  }

  rowAddrs() {
    return [0x00, 0x40, this.cols, 0x40 + this.cols].slice(0, this.rows);
  }

  codes() {
    // the character code of each visible cell, row by row (display shift ignored)
    return this.rowAddrs().map((a) => Array.from(this.ddram.subarray(a, a + this.cols)));
  }

  lit() {
    if (!this.displayOn) return 0;
    let n = 0;
    for (const row of this.codes()) for (const c of row) if (c !== 0x20) n++;
    return n;
  }

  state() {
    return {
      kind: this.kind, cols: this.cols, rows: this.rows, codes: this.codes(),
      cgram: Array.from(this.cgram), display_on: this.displayOn, cursor: this.cursor,
      blink: this.blink, backlight: this.backlight, two_lines: this.twoLines,
      four_bit: this.fourBit, shift: this.shift, instructions: this.instructions,
      data_writes: this.dataWrites, pcf_writes: this.pcfWrites,
      busy_violations: this.busyViolations,
    };
  }

  text() {
    // the rows as ASCII ('?' for a ROM or CGRAM character: the client decodes those)
    if (!this.displayOn) return this.codes().map(() => ' '.repeat(this.cols));
    return this.codes().map((row) => row.map((c) => (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '?')).join(''));
  }
}

// ------------------------------------------------------------------ MAX7219 chain
export class Max7219 {
  constructor() {
    this.digit = new Array(8).fill(0); // registers 1-8
    this.decode = 0;
    this.intensity = 0;
    this.scanLimit = 0;
    this.shutdown = true; // power-on: shutdown mode
    this.test = false;
    this.writes = 0;
  }

  word(reg, data) {
    this.writes++;
    reg &= 0x0f;
    if (reg >= 1 && reg <= 8) this.digit[reg - 1] = data;
    else if (reg === 0x09) this.decode = data;
    else if (reg === 0x0a) this.intensity = data & 0x0f;
    else if (reg === 0x0b) this.scanLimit = data & 7;
    else if (reg === 0x0c) this.shutdown = !(data & 1);
    else if (reg === 0x0f) this.test = !!(data & 1);
  }

  state() {
    return { digit: this.digit.slice(), decode: this.decode, intensity: this.intensity,
      scan_limit: this.scanLimit, shutdown: this.shutdown, test: this.test, writes: this.writes };
  }
}

export class Max7219Chain {
  constructor(n, name) {
    this.name = name;
    this.n = n;
    this.chips = Array.from({ length: n }, () => new Max7219());
    this.sr = new Array(2 * n).fill(0); // the chain's shift registers, farthest chip first
    this.latches = 0;
    this.bytes = 0;
    this.shifted = 0; // bytes since the last latch
  }

  shiftByte(b) {
    this.sr.shift();
    this.sr.push(b & 0xff);
    this.bytes++;
    this.shifted++;
  }

  latch() {
    for (let i = 0; i < this.n; i++) this.chips[i].word(this.sr[2 * i], this.sr[2 * i + 1]);
    this.latches++;
    const n = this.shifted;
    this.shifted = 0;
    return n;
  }

  state() {
    return { chips: this.chips.map((c) => c.state()), latches: this.latches, bytes: this.bytes };
  }

  text() {
    // one line a chip: its eight registers in hex, then its settings
    return this.chips.map((c, i) => `chip ${i} ` + c.digit.map((d) => d.toString(16).padStart(2, '0')).join(' ') +
      ` decode ${c.decode} intensity ${c.intensity} scan ${c.scanLimit} ${c.shutdown ? 'shutdown' : 'on'}${c.test ? ' test' : ''}`);
  }
}

// ------------------------------------------------------------------ WS2812B receiver
const ONE_NS = 625; // a high longer than this is a 1 (0: ~400 ns, 1: ~800 ns)
const RESET_NS = 50000; // a low at least this long latches the frame
const GLITCH_NS = 5000; // a high longer than this is no WS2812 bit

export class NeoPixelRx {
  constructor(npixels) {
    this.npixels = npixels;
    this.frame = new Uint8Array(3 * npixels); // the last latched frame, as sent (GRB)
    this.cur = [];
    this.bits = 0;
    this.byte = 0;
    this.high = false;
    this.tRise = 0;
    this.tFall = -1e18;
    this.frames = 0;
    this.lastBytes = 0;
    this.lastBits = 0;
    this.lastLatchNs = 0;
    this.frameStartNs = 0;
    this.lastFrameNs = 0; // first rising edge to last falling edge of the last frame
    this.errors = 0; // pulses too long, frames with a partial byte or too many bytes
    this.high0 = [Infinity, 0];
    this.high1 = [Infinity, 0];
  }

  edge(high, t) {
    if (high === this.high) return;
    this.high = high;
    if (high) {
      this.poll(t);
      if (this.bits === 0 && this.cur.length === 0) this.frameStartNs = t;
      this.tRise = t;
      return;
    }
    const h = t - this.tRise;
    this.tFall = t;
    if (h > GLITCH_NS) {
      this.errors++;
      return;
    }
    const bit = h >= ONE_NS ? 1 : 0;
    const r = bit ? this.high1 : this.high0;
    if (h < r[0]) r[0] = h;
    if (h > r[1]) r[1] = h;
    this.byte = ((this.byte << 1) | bit) & 0xff;
    if (++this.bits === 8) {
      this.cur.push(this.byte);
      this.bits = 0;
      this.byte = 0;
    }
  }

  // latch the frame if the line has been low for the reset time (called lazily)
  poll(t) {
    if (this.high || (this.cur.length === 0 && this.bits === 0)) return false;
    if (t - this.tFall < RESET_NS) return false;
    const n = this.cur.length;
    if (this.bits || n > this.frame.length) this.errors++;
    // a WS2812 chain keeps the pixels that got no new data: a shorter frame changes the first ones
    this.frame.set(this.cur.slice(0, this.frame.length), 0);
    this.lastBytes = n;
    this.lastBits = n * 8 + this.bits;
    this.lastFrameNs = this.tFall - this.frameStartNs;
    this.lastLatchNs = this.tFall + RESET_NS;
    this.cur = [];
    this.bits = 0;
    this.byte = 0;
    this.frames++;
    return true;
  }

  state() {
    return {
      pixels: this.npixels, frames: this.frames, bytes: Buffer.from(this.frame).toString('hex'),
      last_bytes: this.lastBytes, last_bits: this.lastBits, errors: this.errors,
      frame_us: this.lastFrameNs / 1000, latched_us: Math.round(this.lastLatchNs / 1000),
      high0_ns: this.high0[1] ? this.high0 : null, high1_ns: this.high1[1] ? this.high1 : null,
    };
  }
}

// ------------------------------------------------------------------ PWM tone receiver
const TONE_GAP_NS = 2e6; // a still pin ends a tone after max(this, 4 periods)
const TONE_SHIFT = 0.05; // a period this much off the tone's is a new tone

export class ToneRx {
  constructor(pin) {
    this.pin = pin;
    this.tones = []; // finished: {pin, t0, t1, hz, duty, cycles} (ns)
    this.cur = null; // {t0, tRise, tFall, rises, highNs (whole cycles), lastHigh, period}
    this.high = false;
  }

  edge(high, t) {
    if (high === this.high) return;
    this.high = high;
    this.poll(t);
    const c = this.cur;
    if (!high) {
      if (c) {
        c.tFall = t;
        c.lastHigh = t - c.tRise;
      }
      return;
    }
    if (!c) {
      this.cur = { t0: t, tRise: t, tFall: t, rises: 1, highNs: 0, lastHigh: 0, period: 0 };
      return;
    }
    const p = t - c.tRise;
    if (c.period && Math.abs(p - c.period) > TONE_SHIFT * c.period) {
      // a new frequency from the cycle that began at the last rising edge
      const t0 = c.tRise;
      const h = c.lastHigh;
      this.finish(t0);
      this.cur = { t0, tRise: t, tFall: t, rises: 2, highNs: h, lastHigh: 0, period: p };
      return;
    }
    if (!c.period) c.period = p;
    c.highNs += c.lastHigh;
    c.lastHigh = 0;
    c.rises++;
    c.tRise = t;
  }

  // end the tone in progress if the pin has held still long enough by t (called lazily)
  poll(t) {
    const c = this.cur;
    if (!c) return false;
    if (t - Math.max(c.tRise, c.tFall) < Math.max(TONE_GAP_NS, 4 * c.period)) return false;
    this.finish(Math.max(c.tRise, c.tFall));
    return true;
  }

  // the tone in progress, ended at t1 (its last edge, or where the next frequency began)
  finish(t1) {
    const c = this.cur;
    this.cur = null;
    if (!c || c.rises < 2) return null; // a lone pulse: no frequency
    const span = c.tRise - c.t0; // whole periods: the first to the last rising edge
    const tone = { pin: this.pin, t0: c.t0, t1, hz: ((c.rises - 1) * 1e9) / span,
      duty: c.highNs / span, cycles: c.rises - 1 };
    this.tones.push(tone);
    return tone;
  }
}
