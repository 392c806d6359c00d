// Peripherals on the emulated Pico for run.mjs: the display the profile chooses (an SSD1306 or
// SH1106 128x64 OLED at 0x3C, or an HD44780 LCD behind a PCF8574 at 0x27, on I2C0; MAX7219
// digits on SPI0; or a wall panel alone), the wall panel (WS2812B on GP28, a MAX7219 chain with
// LOAD on GP27), a 4x4 keypad matrix (and direct buttons) on GPIO, and a control socket for test
// scripts. The SH1106, LCD, MAX7219 and WS2812 models are in devices.mjs.
//
//   SSD1306: an I2C target on the RP2040's I2C0 controller (the hardware I2C that machine.I2C
//     uses) at 0x3C, every other address NACKed. MicroPython's rp2 I2C does zero-length writes
//     (i2c.scan(), i2c.writeto(a, b"")) by bit-banging GP4/GP5, so the same device also answers
//     a bit-level I2C decoder on those pins (a wired-AND bus: the line is low when the master or
//     the target pulls it). Control byte (Co, D/C#), the fundamental/addressing/hardware-config/
//     scrolling commands with their argument bytes, the 128x64 GDDRAM with the column/page
//     window of horizontal, vertical and page addressing. Bus timing: each byte (address
//     included) takes 9 SCL periods of what the firmware programmed (IC_FS_SCL_HCNT + LCNT at
//     125 MHz: 2.5 us at 400 kHz, 22.5 us a byte), so the CPU waits for the bus as on a chip;
//     --i2c-instant makes bytes complete at once.
//   Keypad: rows GP6-9 (driven low one at a time, open drain), columns GP10-13 (pull-ups): a
//     column reads low when a pressed key joins it, through any chain of pressed keys (a plain
//     matrix without diodes, ghosting included), to a row driven low. Recomputed in the pins'
//     listeners, synchronously, so a drive-then-read sees the new level. Keymap
//     "123A456B789C*0#D" (row by row). Buttons P1 P2 FOUL UNDO MISS OK on GP14 15 16 20 21 22
//     (to GND). Unused inputs read high (pull-ups).
//   Control socket (a Unix socket; one command line per connection, the reply, then close):
//     press KEY MS        hold KEY for MS ms of emulated time (KEY: 0-9 A-D * # or a button name;
//                         several keys: 0+C); replies "ok T_US RELEASE_US" at once; a press
//                         while an earlier one is held or within 60 ms of its release waits
//                         its turn (T_US then lies ahead)
//     down KEY / up KEY   press / release (no timer)
//     wait MS             reply "ok T_US" once MS ms of emulated time have passed
//     time                emulated microseconds since power-on (the simulation clock)
//     screen [raw]        64 lines of '#'/'.' (what the panel shows: display on/off, inverse,
//                         entire-on, start line and COM/segment direction applied; raw: the
//                         GDDRAM as the firmware addresses it), then "frame N updates ... t_us T"
//     png PATH [SCALE]    the panel as a PNG (default scale 4), "ok PATH"
//     stats               one JSON object: counters
//     log [SEQ]           events from SEQ on, one JSON object a line: key down/up/seen, I2C
//                         transactions (t0/t1 us, addr, ack, bytes, GDDRAM bytes, window, pass)
//     passes [FROM_US]    "N T_US" for each keypad scan row by row since FROM_US (a loop pass
//                         of the firmware while a key is down or settling: at rest its rows stay
//                         low and it reads only the columns)
//     feeds [FROM_US]     "N T_US" for each watchdog feed since FROM_US (the end of each loop
//                         pass of the app, firmware/app.py)
//     serial [N]          the last N (default 4096) bytes of the USB serial output
//     device              the selected display's chip state, one JSON object (OLED RAM in hex,
//                         the LCD's DDRAM codes by row and CGRAM, each MAX7219's registers)
//     wall                the wall panel's state (NeoPixel: the last latched frame's bytes as
//                         sent, hex, with its bit timings; matrix: each chip's registers,
//                         farthest from DIN first), or null
//     tones [PIN]         the square waves PWM slices put on pins (PIN: that pin only), one
//                         JSON list: {pin, t0, t1 (us: first rising, last edge), hz, duty,
//                         cycles}, the one still sounding with "on": true
//     (screen shows the LCD's rows, the MAX7219 registers or the strip's bytes for those kinds;
//     png draws only an OLED: the client draws the others from `device`.)
//     (run.mjs adds `cut N`: a power cut in the middle of the Nth flash operation from now;
//     and logs every flash erase/program as an event)
import fs from 'fs';
import net from 'net';
import zlib from 'zlib';
import { GPIOPinState } from 'rp2040js';
import { Lcd, Max7219Chain, NeoPixelRx, OledI2c, SH1106, ToneRx } from './devices.mjs';

const W = 128;
const H = 64;
const PAGES = H / 8;

// ------------------------------------------------------------------ SSD1306 model
// Argument bytes after each command opcode (the rest take none).
const ARGS = {
  0x81: 1, 0x8d: 1, 0x20: 1, 0x21: 2, 0x22: 2, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1,
  0xdb: 1, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0xa3: 2, 0xd6: 1, 0xad: 1,
};

export class SSD1306 extends OledI2c {
  constructor() {
    super(W, H, W, 0);
    this.argc = ARGS;
    this.powerOn();
  }

  powerOn() {
    // The reset state of the datasheet (GDDRAM: what a fresh panel holds, random; zeros here).
    super.powerOn();
    this.contrast = 0x7f;
    this.colStart = 0;
    this.colEnd = W - 1;
    this.pageStart = 0;
    this.pageEnd = PAGES - 1;
    this.mux = 63;
    this.chargePump = false;
    this.scrolling = false;
  }

  data(b) {
    this.ram[this.page * W + this.col] = b;
    if (this.mode === 0) {
      // horizontal: column first, then the next page, both within the window
      if (this.col >= this.colEnd) {
        this.col = this.colStart;
        this.page = this.page >= this.pageEnd ? this.pageStart : this.page + 1;
      } else this.col++;
    } else if (this.mode === 1) {
      // vertical: page first, then the next column
      if (this.page >= this.pageEnd) {
        this.page = this.pageStart;
        this.col = this.col >= this.colEnd ? this.colStart : this.col + 1;
      } else this.page++;
    } else {
      // page addressing: the column wraps within the page
      this.col = this.col >= W - 1 ? this.pageModeCol || 0 : this.col + 1;
    }
  }

  apply(op, a) {
    this.cmds++;
    switch (op) {
      case 0x81: this.contrast = a[0]; return;
      case 0x8d: this.chargePump = !!(a[0] & 0x04); return;
      case 0x20: this.mode = a[0] & 3; if (this.mode === 3) this.mode = 2; return;
      case 0x21:
        this.colStart = a[0] & 0x7f;
        this.colEnd = a[1] & 0x7f;
        this.col = this.colStart;
        return;
      case 0x22:
        this.pageStart = a[0] & 7;
        this.pageEnd = a[1] & 7;
        this.page = this.pageStart;
        return;
      case 0xa8: this.mux = a[0] & 0x3f; return;
      case 0xd3: this.offset = a[0] & 0x3f; return;
      case 0xd5: case 0xd9: case 0xda: case 0xdb: case 0xd6: case 0xad: return;
      case 0x26: case 0x27: case 0x29: case 0x2a: case 0xa3: return; // scroll setup
      case 0x2e: this.scrolling = false; return;
      case 0x2f: this.scrolling = true; return;
      case 0xa0: case 0xa1: this.segRemap = !!(op & 1); return;
      case 0xa4: case 0xa5: this.entireOn = !!(op & 1); return;
      case 0xa6: case 0xa7: this.inverse = !!(op & 1); return;
      case 0xae: case 0xaf: this.on = !!(op & 1); return;
      case 0xc0: case 0xc8: this.comRev = !!(op & 8); return;
      case 0xe3: return; // NOP
    }
    if (op >= 0x40 && op <= 0x7f) { this.startLine = op & 0x3f; return; }
    if (op >= 0xb0 && op <= 0xb7) { this.page = op & 7; return; }
    if (op <= 0x0f) { this.col = (this.col & 0x70) | op; this.pageModeCol = this.col; return; }
    if (op <= 0x1f) { this.col = ((op & 7) << 4) | (this.col & 0x0f); this.pageModeCol = this.col; return; }
    this.unknown++;
  }

  png(scale = 4) {
    return oledPng(this, scale);
  }
}

// An OLED's panel (SSD1306 or SH1106: panelPixel(x, y), contrast) as a greyscale PNG.
export function oledPng(dev, scale = 4) {
    const w = W * scale;
    const h = H * scale;
    const raw = Buffer.alloc((w + 1) * h);
    for (let y = 0; y < h; y++) {
      raw[y * (w + 1)] = 0; // filter: none
      for (let x = 0; x < w; x++) {
        const on = dev.panelPixel((x / scale) | 0, (y / scale) | 0);
        raw[y * (w + 1) + 1 + x] = on ? Math.round(0x20 + (0xdf * dev.contrast) / 255) : 0;
      }
    }
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(w, 0);
    ihdr.writeUInt32BE(h, 4);
    ihdr[8] = 8; // bit depth
    ihdr[9] = 0; // greyscale
    return Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      pngChunk('IHDR', ihdr),
      pngChunk('IDAT', zlib.deflateSync(raw)),
      pngChunk('IEND', Buffer.alloc(0)),
    ]);
}

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(buf) {
  let c = 0xffffffff;
  for (let i = 0; i < buf.length; i++) c = CRC_TABLE[(c ^ buf[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function pngChunk(type, data) {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

// ------------------------------------------------------------------ the board
// The device set, as boards/pico.py's PROFILE selects it (opts): display "oled" (SSD1306 at 0x3C)
// | "sh1106" (0x3C) | "lcd20" | "lcd16" (HD44780 behind a PCF8574 at 0x27) | "digits" (one MAX7219,
// LOAD on GP17) | "neopixel" | "matrix" (the wall panel as the only display); wall null |
// "neopixel" (WS2812B on GP28) | "matrix" (a MAX7219 chain of wallSize/8 modules, LOAD on GP27);
// wallSize [w, h] in pixels. The I2C devices not selected are absent (their address NACKs).
export const DISPLAYS = ['oled', 'sh1106', 'lcd20', 'lcd16', 'digits', 'neopixel', 'matrix'];
const WALLS = ['neopixel', 'matrix'];
const MOSI = 19;
const SCK = 18;
const DIGITS_CS = 17;
const MATRIX_CS = 27;
const NEOPIXEL_PIN = 28;
const FUNCTION_PWM = 4; // IO_BANK0 GPIOx_CTRL FUNCSEL: the pin driven by its PWM slice

export function attachBoard(mcu, clock, opts = {}) {
  const { kick = () => {}, log = () => {}, i2cInstant = false, ctlPath = null, command = null } = opts;
  const displayKind = opts.display || 'oled';
  if (!DISPLAYS.includes(displayKind)) throw new Error(`display kind ${displayKind}`);
  const wallKind = WALLS.includes(displayKind) ? displayKind : opts.wall || null;
  if (wallKind && !WALLS.includes(wallKind)) throw new Error(`wall kind ${wallKind}`);
  const [wallW, wallH] = opts.wallSize || [32, 8];
  const gpio = mcu.gpio;
  const CYCLE_NANOS = 1e9 / 125e6;
  const us = () => Math.round(clock.nanos / 1000);
  // the I2C display (null for the SPI and wall kinds)
  let oled = null;
  let ADDR = -1;
  if (displayKind === 'oled') oled = new SSD1306();
  else if (displayKind === 'sh1106') oled = new SH1106();
  else if (displayKind === 'lcd20' || displayKind === 'lcd16') {
    oled = displayKind === 'lcd20' ? new Lcd(20, 4) : new Lcd(16, 2);
    oled.now = () => clock.nanos;
  }
  if (oled) ADDR = oled instanceof Lcd ? 0x27 : 0x3c;
  const isOled = oled !== null && !(oled instanceof Lcd);
  // SPI0: the 7-segment digits' chain (one chip) and the dot-matrix wall's chain
  const digits = displayKind === 'digits' ? new Max7219Chain(1, 'digits') : null;
  const matrix = wallKind === 'matrix' ? new Max7219Chain((wallW >> 3) * (wallH >> 3), 'matrix') : null;
  const neo = wallKind === 'neopixel' ? new NeoPixelRx(wallW * wallH) : null;

  // event log for the control socket
  const events = [];
  let seq = 0;
  const MAX_EVENTS = 50000;
  const event = (e) => {
    e.seq = seq++;
    events.push(e);
    if (events.length > MAX_EVENTS) events.splice(0, events.length - MAX_EVENTS);
  };

  const stats = {
    i2cTransactions: 0, i2cNacks: 0, i2cBytes: 0, gddramBytes: 0, frames: 0, passes: 0, feeds: 0,
    softTransactions: 0, firstFrameUs: null, firstLitFrameUs: null,
    spiBytes: 0, spiUnrouted: 0, spiLatches: 0, neopixelFrames: 0, tones: 0,
  };
  let lastDataPass = -1;

  // --- a transaction in progress (hardware or bit-banged)
  let tx = null;
  function txStart(soft) {
    tx = { t0: us(), soft, addr: -1, read: false, ack: false, n: 0, data: 0, cmds: [], win: null, tLast: us() };
  }
  function txByte(b) {
    tx.n++;
    tx.tLast = us();
    stats.i2cBytes++;
    const kind = oled ? oled.byte(b) : 'nack';
    if (kind === 'data') {
      if (tx.data === 0 && isOled) tx.win = [oled.col, oled.page];
      tx.data++;
      stats.gddramBytes++;
    } else if (kind === 'cmd' && tx.cmds.length < 32) tx.cmds.push(b);
  }
  function txEnd() {
    if (!tx) return;
    const t = tx;
    tx = null;
    if (t.addr < 0) return; // a start without an address
    stats.i2cTransactions++;
    if (t.soft) stats.softTransactions++;
    if (!t.ack) stats.i2cNacks++;
    const e = { ev: 'i2c', t0: t.t0, t1: t.tLast, addr: t.addr, ack: t.ack, read: t.read, bytes: t.n, pass: stats.passes };
    if (t.soft) e.soft = true;
    if (t.data) {
      e.data = t.data;
      e.win = t.win;
      if (stats.passes !== lastDataPass || stats.frames === 0) {
        stats.frames++;
        lastDataPass = stats.passes;
        if (stats.firstFrameUs === null) stats.firstFrameUs = t.tLast;
      }
      e.frame = stats.frames;
      e.lit = oled ? oled.lit() : 0;
      if (e.lit && stats.firstLitFrameUs === null) stats.firstLitFrameUs = t.tLast;
    }
    if (t.cmds.length) e.cmds = t.cmds;
    event(e);
  }

  // --- hardware I2C0 (what machine.I2C drives)
  const i2c = mcu.i2c[0];
  const alarm = clock.createAlarm(() => {
    const f = pendingI2C;
    pendingI2C = null;
    if (f) f();
  });
  let pendingI2C = null;
  const bitNanos = () => {
    const cnt = i2c.sclHighPeriod + i2c.sclLowPeriod;
    return Math.max(1, cnt) * CYCLE_NANOS;
  };
  const later = (bits, f) => {
    if (i2cInstant) {
      f();
      return;
    }
    pendingI2C = f;
    alarm.schedule(bits * bitNanos());
  };
  i2c.onStart = (repeated) => {
    if (tx) txEnd();
    txStart(false);
    later(1, () => i2c.completeStart());
  };
  i2c.onConnect = (address, mode) => {
    tx.addr = address;
    tx.read = mode === 1;
    tx.ack = address === ADDR;
    tx.n++;
    stats.i2cBytes++;
    tx.tLast = us();
    if (tx.ack && !tx.read) oled.start();
    later(9, () => {
      tx && (tx.tLast = us());
      const ack = tx ? tx.ack : false;
      i2c.completeConnect(ack);
      if (!ack) flushed();
    });
  };
  i2c.onWriteByte = (value) => {
    later(9, () => {
      const ack = !!(tx && tx.ack);
      if (ack) txByte(value);
      i2c.completeWrite(ack);
      if (!ack) flushed();
    });
  };
  // rp2040js flushes the TX FIFO on an abort (a NACK) but leaves TX_EMPTY clear, so pico-sdk's
  // i2c_write waits for it until its timeout (ETIMEDOUT, and a TX_ABRT left pending that fails
  // the next transfer); the chip raises TX_EMPTY once the FIFO is empty: EIO, as on a board.
  const R_TX_EMPTY = 1 << 4;
  const flushed = () => {
    if (i2c.txFIFO.itemCount <= i2c.txThreshold) i2c.setInterrupts(R_TX_EMPTY);
  };
  i2c.onReadByte = () => {
    later(9, () => {
      if (tx) { tx.n++; tx.tLast = us(); }
      i2c.completeRead(oled ? oled.status() : 0xff);
    });
  };
  i2c.onStop = () => {
    later(1, () => {
      txEnd();
      i2c.completeStop();
    });
  };

  // --- bit-banged I2C on GP4 (SDA) / GP5 (SCL): MicroPython's zero-length writes (scan)
  const SDA = 4;
  const SCL = 5;
  let mSda = true; // the master releases the line (pulled up)
  let mScl = true;
  let tSdaLow = false; // the target pulls SDA low (ACK)
  const bb = { state: 'idle', bits: 0, byte: 0, acked: false };
  const sdaLine = () => mSda && !tSdaLow;
  const drive = () => {
    gpio[SDA].setInputValue(sdaLine());
    gpio[SCL].setInputValue(mScl);
  };
  drive();
  gpio[SDA].addListener((state) => {
    const v = state !== GPIOPinState.Low;
    if (v === mSda) return;
    mSda = v;
    if (mScl) {
      if (!v) {
        // START (or repeated start)
        if (tx) txEnd();
        txStart(true);
        bb.state = 'addr';
        bb.bits = 0;
        bb.byte = 0;
      } else if (bb.state !== 'idle' || tx) {
        // STOP
        if (tx && tx.soft) txEnd();
        bb.state = 'idle';
        tSdaLow = false;
      }
    }
    drive();
  });
  gpio[SCL].addListener((state) => {
    const v = state !== GPIOPinState.Low;
    if (v === mScl) return;
    mScl = v;
    if (v) {
      // rising edge: the receiver samples SDA
      if ((bb.state === 'addr' || bb.state === 'data') && bb.bits < 8) {
        bb.byte = ((bb.byte << 1) | (sdaLine() ? 1 : 0)) & 0xff;
        bb.bits++;
      }
    } else {
      // falling edge: after 8 bits the target answers in the 9th clock
      if (bb.state === 'ack') {
        tSdaLow = false;
        bb.state = bb.acked && !(tx && tx.read) ? 'data' : 'nack';
        bb.bits = 0;
        bb.byte = 0;
      } else if ((bb.state === 'addr' || bb.state === 'data') && bb.bits === 8) {
        if (bb.state === 'addr') {
          const a = bb.byte >> 1;
          tx.addr = a;
          tx.read = !!(bb.byte & 1);
          tx.ack = a === ADDR && !tx.read; // bit-banged reads are not answered (MicroPython has none)
          tx.n++;
          tx.tLast = us();
          stats.i2cBytes++;
          bb.acked = tx.ack;
          if (tx.ack) oled.start();
        } else if (tx && tx.ack) txByte(bb.byte);
        tSdaLow = bb.acked;
        bb.state = 'ack';
      }
    }
    drive();
  });

  // --- SPI0 (machine.SPI(0), SCK GP18, MOSI GP19): the MAX7219 chains shift every byte; each
  // latches on a rising edge of its LOAD pin (GP17 digits, GP27 matrix). A byte takes 8 SCK
  // periods of the rate the firmware set (8 us at 1 MHz).
  const chains = [];
  if (digits) chains.push([digits, DIGITS_CS]);
  if (matrix) chains.push([matrix, MATRIX_CS]);
  if (chains.length) {
    const spi = mcu.spi[0];
    let spiDone = null;
    const spiAlarm = clock.createAlarm(() => {
      const f = spiDone;
      spiDone = null;
      if (f) f();
    });
    spi.onTransmit = (value) => {
      stats.spiBytes++;
      // the chips see the byte only if SCK and MOSI are routed to SPI0 (function 1) on GP18/19
      if (gpio[SCK].functionSelect === 1 && gpio[MOSI].functionSelect === 1) {
        for (const [ch] of chains) ch.shiftByte(value);
      } else stats.spiUnrouted++;
      const hz = spi.clockFrequency;
      if (i2cInstant || !hz) {
        spi.completeTransmit(0);
        return;
      }
      spiDone = () => spi.completeTransmit(0);
      spiAlarm.schedule((8 * 1e9) / hz);
    };
    for (const [ch, pin] of chains) {
      let level = true;
      let tLow = 0;
      gpio[pin].addListener((state) => {
        const v = state !== GPIOPinState.Low;
        if (v === level) return;
        level = v;
        if (!v) {
          tLow = us();
          return;
        }
        const n = ch.latch();
        stats.spiLatches++;
        const e = { ev: 'spi', dev: ch.name, t0: tLow, t1: us(), bytes: n, pass: stats.passes };
        const w = ch.sr;
        if (n <= 2 * ch.n) e.words = w.slice(w.length - n);
        event(e);
      });
    }
  }

  // --- WS2812B data on GP28 (MicroPython's neopixel.write(): machine.bitstream, the CPU times
  // the bits with SysTick, interrupts off): decoded from the pin's edges in emulated time
  const neoPoll = () => {
    if (neo && neo.poll(clock.nanos)) {
      stats.neopixelFrames++;
      event({ ev: 'neopixel', t0: Math.round(neo.frameStartNs / 1000), t1: Math.round(neo.tFall / 1000),
        bytes: neo.lastBytes, frame: neo.frames, pass: stats.passes });
    }
  };
  if (neo) {
    // the latch is looked at 50 us after a frame's falling edge (re-armed while bits come)
    let armed = false;
    const neoAlarm = clock.createAlarm(() => {
      armed = false;
      neoPoll();
      if (neo.cur.length || neo.bits) {
        armed = true;
        neoAlarm.schedule(Math.max(1000, neo.tFall + 50000 - clock.nanos + 1));
      }
    });
    gpio[NEOPIXEL_PIN].addListener((state) => {
      const high = state === GPIOPinState.High;
      if (high) neoPoll(); // a frame the line's long low ended
      neo.edge(high, clock.nanos);
      if (!high && !armed) {
        armed = true;
        neoAlarm.schedule(51000);
      }
    });
  }

  // --- PWM tones (the piezo buzzer, boards/pico.py "buzzer_pin"): every pin a PWM slice drives
  // (GPIO function 4), its square wave decoded from the pin's edges in emulated time (ToneRx);
  // a tone is logged once the pin has held still after it (looked at every 5 ms while it sounds)
  const toneRx = new Map(); // pin -> ToneRx
  const toneDone = (rx) => {
    for (; rx.logged < rx.tones.length; rx.logged++) {
      const t = rx.tones[rx.logged];
      stats.tones++;
      event({ ev: 'tone', pin: t.pin, t0: Math.round(t.t0 / 1000), t1: Math.round(t.t1 / 1000),
        hz: t.hz, duty: t.duty, cycles: t.cycles, pass: stats.passes });
    }
  };
  const tonePoll = () => {
    let sounding = false;
    for (const rx of toneRx.values()) {
      rx.poll(clock.nanos);
      toneDone(rx);
      if (rx.cur) sounding = true;
    }
    return sounding;
  };
  let toneArmed = false;
  const toneAlarm = clock.createAlarm(() => {
    toneArmed = tonePoll();
    if (toneArmed) toneAlarm.schedule(5e6);
  });
  for (let i = 0; i < 30; i++) {
    gpio[i].addListener((state) => {
      if (gpio[i].functionSelect !== FUNCTION_PWM) return;
      let rx = toneRx.get(i);
      if (!rx) {
        rx = new ToneRx(i);
        rx.logged = 0;
        toneRx.set(i, rx);
      }
      rx.edge(state === GPIOPinState.High, clock.nanos);
      toneDone(rx);
      if (!toneArmed && rx.cur) {
        toneArmed = true;
        toneAlarm.schedule(5e6);
      }
    });
  }
  // the tones so far (us, Hz), the one still sounding last with "on": true
  function toneList(pin) {
    tonePoll();
    const out = [];
    for (const rx of toneRx.values()) {
      if (pin !== null && rx.pin !== pin) continue;
      const us1 = (t) => Math.round(t / 1000);
      for (const t of rx.tones) out.push({ pin: t.pin, t0: us1(t.t0), t1: us1(t.t1), hz: t.hz, duty: t.duty, cycles: t.cycles });
      const c = rx.cur;
      if (c && c.rises >= 2) {
        const span = c.tRise - c.t0;
        out.push({ pin: rx.pin, t0: us1(c.t0), t1: us1(Math.max(c.tRise, c.tFall)), hz: ((c.rises - 1) * 1e9) / span,
          duty: c.highNs / span, cycles: c.rises - 1, on: true });
      }
    }
    return out.sort((a, b) => a.t0 - b.t0);
  }

  // --- keypad matrix and buttons
  const ROWS = [6, 7, 8, 9];
  const COLS = [10, 11, 12, 13];
  const KEYMAP = '123A456B789C*0#D';
  const BUTTONS = { P1: 14, P2: 15, FOUL: 16, UNDO: 20, MISS: 21, OK: 22 };
  const passTimes = new Float64Array(8192); // when each of the last 8192 keypad scans began
  // the watchdog's feeds (its LOAD register written): when each of the last 8192 came
  const feedTimes = new Float64Array(8192);
  const watchdog = mcu.peripherals[0x40058];
  const watchdogWrite = watchdog.writeUint32.bind(watchdog);
  watchdog.writeUint32 = (offset, value) => {
    if (offset === 0x04) feedTimes[stats.feeds++ % feedTimes.length] = us();
    watchdogWrite(offset, value);
  };
  const pressed = new Set();
  const PRESS_GAP_MS = 60; // between queued presses: past the firmware's 30 ms release debounce
  let keysFree = 0; // emulated us from which the next `press` may start
  const unseen = new Set(); // pressed keys whose contact no scan has seen yet
  for (let i = 0; i < 30; i++) {
    if (i === SDA || i === SCL || ROWS.includes(i)) continue;
    gpio[i].setInputValue(true); // pull-ups / idle-high inputs
  }
  const rowLow = (r) => gpio[ROWS[r]].value === GPIOPinState.Low;
  function refresh() {
    // nodes 0-3 rows, 4-7 columns; pressed keys join a row to a column
    const parent = [0, 1, 2, 3, 4, 5, 6, 7];
    const find = (a) => (parent[a] === a ? a : (parent[a] = find(parent[a])));
    for (const k of pressed) {
      const i = KEYMAP.indexOf(k);
      if (i < 0) continue;
      parent[find(i >> 2)] = find(4 + (i & 3));
    }
    const lowRoot = new Set();
    for (let r = 0; r < 4; r++) if (rowLow(r)) lowRoot.add(find(r));
    for (let c = 0; c < 4; c++) {
      const low = lowRoot.has(find(4 + c));
      gpio[COLS[c]].setInputValue(!low);
    }
    if (unseen.size) {
      for (const k of [...unseen]) {
        const i = KEYMAP.indexOf(k);
        if (i >= 0 && rowLow(i >> 2)) {
          unseen.delete(k);
          event({ ev: 'seen', key: k, t: us(), pass: stats.passes });
        }
      }
    }
    for (const [name, pin] of Object.entries(BUTTONS)) gpio[pin].setInputValue(!pressed.has(name));
  }
  ROWS.forEach((pin, r) => {
    gpio[pin].addListener((state, old) => {
      // a scan row by row begins with row 0 low alone (the firmware drives every row low
      // together last row first, so that is no pass)
      if (r === 0 && state === GPIOPinState.Low && [1, 2, 3].every((q) => !rowLow(q))) {
        passTimes[stats.passes % passTimes.length] = us();
        stats.passes++;
      }
      refresh();
    });
  });
  const keyName = (k) => {
    const u = k.toUpperCase();
    if (BUTTONS[u] !== undefined) return u;
    if (k.length === 1 && KEYMAP.includes(u)) return u;
    return null;
  };
  function down(k) {
    pressed.add(k);
    if (KEYMAP.includes(k)) unseen.add(k);
    event({ ev: 'down', key: k, t: us(), pass: stats.passes });
    refresh();
  }
  function up(k) {
    pressed.delete(k);
    unseen.delete(k);
    event({ ev: 'up', key: k, t: us(), pass: stats.passes });
    refresh();
  }

  // --- USB serial tee
  let serialBuf = Buffer.alloc(0);
  const serialTee = (u8) => {
    serialBuf = Buffer.concat([serialBuf, Buffer.from(u8)]);
    if (serialBuf.length > 65536) serialBuf = serialBuf.subarray(serialBuf.length - 65536);
  };

  // --- control socket
  function wallState() {
    if (neo) {
      neoPoll();
      return { kind: 'neopixel', size: [wallW, wallH], ...neo.state() };
    }
    if (matrix) return { kind: 'matrix', size: [wallW, wallH], ...matrix.state() };
    return null;
  }
  // The selected display's state, as its chips hold it (the client decodes what it shows).
  function deviceState() {
    if (WALLS.includes(displayKind)) return wallState();
    if (digits) return { kind: 'digits', ...digits.state() };
    if (oled instanceof Lcd) return oled.state();
    return {
      kind: displayKind, width: W, height: H, on: oled.on, inverse: oled.inverse,
      entire_on: oled.entireOn, contrast: oled.contrast, seg_remap: oled.segRemap,
      com_rev: oled.comRev, start_line: oled.startLine, offset: oled.offset, cmds: oled.cmds,
      unknown_cmds: oled.unknown, ram_w: oled.ramW || W, ram: Buffer.from(oled.ram).toString('hex'),
    };
  }
  function wallText() {
    // the panel's strip or chain as lines: NeoPixel bytes a pixel in strip order, MAX7219 chips
    const st = wallState();
    if (!st) return ['no wall panel'];
    if (matrix) return matrix.text();
    const lines = [];
    const hex = st.bytes;
    for (let i = 0; i < st.pixels; i += 8) {
      const px = [];
      for (let k = i; k < Math.min(i + 8, st.pixels); k++) px.push(hex.slice(6 * k, 6 * k + 6));
      lines.push(`${String(i).padStart(3)} ${px.join(' ')}`);
    }
    return lines;
  }
  function screenText(raw) {
    // OLEDs: 64 lines of '#'/'.'; the LCD: its rows (ASCII; '?' a ROM or CGRAM character); the
    // digits and the wall panels: their registers or pixel bytes. Then a status line.
    let lines;
    let status;
    if (isOled) {
      lines = oled.text(raw);
      status = `display ${oled.on ? 'on' : 'off'} inverse ${oled.inverse ? 1 : 0} contrast ${oled.contrast} lit ${oled.lit()}`;
    } else if (oled) {
      lines = oled.text();
      status = `display ${oled.displayOn ? 'on' : 'off'} backlight ${oled.backlight ? 1 : 0} lit ${oled.lit()} busy_violations ${oled.busyViolations}`;
    } else if (digits) {
      lines = digits.text();
      status = `latches ${digits.latches}`;
    } else {
      lines = wallText();
      status = `wall ${wallKind}`;
    }
    lines.push(
      `frame ${stats.frames} gddram_bytes ${stats.gddramBytes} i2c_bytes ${stats.i2cBytes} t_us ${us()} ` + status,
    );
    return lines.join('\n') + '\n';
  }
  function handle(line, reply) {
    const a = line.trim().split(/\s+/);
    const c = (a[0] || '').toLowerCase();
    try {
      if (c === 'press') {
        const keys = (a[1] || '').split('+').map(keyName);
        if (!a[1] || keys.includes(null)) return reply(`error: unknown key ${a[1]}\n`);
        const ms = a[2] !== undefined ? Number(a[2]) : 80;
        if (!(ms > 0)) return reply('error: MS\n');
        // Presses queue: one starts PRESS_GAP_MS after the one before it was released (back-to-
        // back commands from separate processes would otherwise hold keys together, or release
        // a key pressed again early), so every key of a sequence is debounced as a press of its own.
        const t = Math.max(us(), keysFree);
        const start = () => keys.forEach(down);
        if (t > us()) clock.createAlarm(start).schedule((t - us()) * 1000);
        else start();
        const rel = clock.createAlarm(() => keys.forEach(up));
        rel.schedule((t - us()) * 1000 + ms * 1e6);
        keysFree = t + Math.round(ms * 1000) + PRESS_GAP_MS * 1000;
        kick();
        return reply(`ok ${t} ${t + Math.round(ms * 1000)}\n`);
      }
      if (c === 'down' || c === 'up') {
        const k = keyName(a[1] || '');
        if (!k) return reply(`error: unknown key ${a[1]}\n`);
        (c === 'down' ? down : up)(k);
        kick();
        return reply(`ok ${us()}\n`);
      }
      if (c === 'wait') {
        const ms = Number(a[1] || 0);
        const w = clock.createAlarm(() => reply(`ok ${us()}\n`));
        w.schedule(Math.max(0, ms) * 1e6);
        kick();
        return;
      }
      if (c === 'time') return reply(`${us()}\n`);
      if (c === 'device') return reply(JSON.stringify(deviceState()) + '\n');
      if (c === 'wall') return reply(JSON.stringify(wallState()) + '\n');
      if (c === 'tones') return reply(JSON.stringify(toneList(a[1] !== undefined ? Number(a[1]) : null)) + '\n');
      if (c === 'screen') return reply(screenText(a[1] === 'raw'));
      if (c === 'png') {
        if (!a[1]) return reply('error: png PATH [SCALE]\n');
        if (!isOled) return reply(`error: png: the ${displayKind} is drawn by the client from \`device\` (host_tools.vpico)\n`);
        fs.writeFileSync(a[1], oledPng(oled, Number(a[2] || 4)));
        return reply(`ok ${a[1]}\n`);
      }
      if (c === 'stats') {
        return reply(JSON.stringify({ t_us: us(), seq, ...stats, kind: displayKind, wallKind, display: isOled ? { on: oled.on, inverse: oled.inverse, contrast: oled.contrast, mode: oled.mode, cmds: oled.cmds, unknownCmds: oled.unknown } : oled ? { on: oled.displayOn, backlight: oled.backlight, instructions: oled.instructions, busyViolations: oled.busyViolations } : null, pressed: [...pressed], i2cInstant, cycles: mcu.core.cycles }) + '\n');
      }
      if (c === 'log') {
        const from = Number(a[1] || 0);
        return reply(events.filter((e) => e.seq >= from).map((e) => JSON.stringify(e)).join('\n') + '\n');
      }
      if (c === 'passes' || c === 'feeds') {
        // the times (us) since FROM_US of the keypad's row-by-row scans or the watchdog's feeds
        const [times, count] = c === 'passes' ? [passTimes, stats.passes] : [feedTimes, stats.feeds];
        const from = Number(a[1] || 0);
        const n = Math.min(count, times.length);
        const out = [];
        for (let i = count - n; i < count; i++) {
          const t = times[i % times.length];
          if (t >= from) out.push(`${i + 1} ${t}`);
        }
        return reply(out.join('\n') + '\n');
      }
      if (c === 'serial') {
        const n = Number(a[1] || 4096);
        return reply(serialBuf.subarray(Math.max(0, serialBuf.length - n)).toString('latin1'));
      }
      if (command && command(c, a, reply)) return;
      return reply(`error: unknown command ${c}\n`);
    } catch (e) {
      return reply(`error: ${e.message}\n`);
    }
  }
  let server = null;
  if (ctlPath) {
    try { fs.unlinkSync(ctlPath); } catch (e) {}
    server = net.createServer((sock) => {
      let buf = '';
      let done = false;
      sock.on('data', (d) => {
        buf += d.toString();
        const nl = buf.indexOf('\n');
        if (nl < 0 || done) return;
        done = true;
        handle(buf.slice(0, nl), (text) => {
          if (!sock.destroyed) sock.end(text);
        });
      });
      sock.on('error', () => {});
    });
    server.listen(ctlPath, () => log(`control socket ${ctlPath}`));
    server.unref(); // the emulator's own work keeps the process alive
  }
  return { oled, digits, matrix, neo, stats, events, event, serialTee, down, up, close: () => server && server.close() };
}
