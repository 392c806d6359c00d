// Boot a MicroPython rp2 firmware (UF2) in rp2040js (Wokwi's RP2040 emulator) with the
// board's USB CDC serial (the REPL) bridged to this process's stdin/stdout, and the 2 MB flash
// kept in a file: every flash erase/program the firmware does is written through to it, so a
// littlefs filesystem survives a kill of this process ("power cut") and a restart.
//
// usage: node run.mjs [--uf2 FIRMWARE.uf2] --flash FLASH.bin [--no-uf2] [--quiet]
//                     [--ctl SOCKET] [--i2c-instant] [--no-pace] [--flash-timing]
//                     [--display oled|sh1106|lcd20|lcd16|digits|neopixel|matrix]
//                     [--wall neopixel|matrix] [--wall-size WxH]
//   --uf2: default $VPICO_UF2, else ../shared/pico/firmware.uf2 beside the repository.
//   --ctl: a Unix socket for test scripts (press keys, read the OLED, emulated time: see
//   periph.mjs, and host_tools/vpico for a client); the board's SSD1306 (I2C0, 0x3C) and 4x4 keypad
//   (rows GP6-9, columns GP10-13) are there with or without it. --i2c-instant: I2C bytes take no
//   emulated time (default: 9 SCL periods each, as programmed by the firmware).
//   exit code 3: the firmware asked for a hard reset (machine.reset(), watchdog): the caller
//   (bridge.py) starts a fresh emulator on the same flash file, as a real chip would reboot.
//   --no-pace: let idle time pass at once (see "pacing" below; the default paces it).
//   --flash-timing: each flash erase and program takes the emulated time a W25Q16JV (the Pico's
//   flash) typically takes, 45 ms a 4 KB sector and 0.4 ms a 256-byte page, the core stalled
//   as on the chip (the firmware runs these with interrupts off); default: no time at all.
//   --display, --wall, --wall-size: the devices on the board's buses, as the profile options of
//   the same names choose them (default: the SSD1306 OLED, no wall panel; periph.mjs).
//
// Based on rp2040js's demo/micropython-run.ts (bootrom, UF2 loading, USB CDC host). Added here:
//   - flash writes: rp2040js doesn't emulate the QSPI flash's program/erase commands, so the
//     bootrom's flash_range_erase ('RE') and flash_range_program ('RP') are patched with a BKPT
//     that this script handles (NOR semantics: erase -> 0xff, program -> AND), then returns to LR.
//   - host->device serial: bytes are queued and handed to the device only when it arms its OUT
//     endpoint (the demo's 512-byte FIFO drops bytes beyond that and answers empty reads).
//   - hard reset via the watchdog -> exit(3).
//   - the board's peripherals (periph.mjs): SSD1306 OLED on I2C0, keypad, control socket.
//   - pacing: emulated time never runs more than 50 ms ahead of wall time. Computing, the
//     emulator is slower than a chip, so this changes nothing while the firmware works; but a
//     long sleep (the REPL waiting for input while the watchdog counts down, time.sleep(2))
//     takes its real time, as on a board. Without it the watchdog of a board stopped at the REPL
//     fired at once in wall time, and nothing could talk to that board (a deploy must).
// Derived from ../shared/pico/pico-run.mjs; this copy is the project's own.
import fs from 'fs';
import { Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { decodeBlock } from 'uf2';
import { bootromB1 } from './bootrom.mjs';
import { attachBoard } from './periph.mjs';

const argv = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : dflt;
};
const UF2 = opt('--uf2', process.env.VPICO_UF2 || new URL('../../../shared/pico/firmware.uf2', import.meta.url).pathname);
const FLASH_FILE = opt('--flash', (process.env.TMPDIR || '/tmp') + '/pico-flash.bin');
const NO_UF2 = argv.includes('--no-uf2');
const QUIET = argv.includes('--quiet');
const CTL = opt('--ctl', null);
const I2C_INSTANT = argv.includes('--i2c-instant');
const FLASH_TIMING = argv.includes('--flash-timing');
const ERASE_NS = 45e6; // W25Q16JV datasheet: sector erase (4 KB) typical 45 ms (max 400)
const PAGE_NS = 0.4e6; // page program (256 bytes) typical 0.4 ms (max 3)
const PACE = !argv.includes('--no-pace');
// The devices around the chip, as the board's profile options choose them (periph.mjs).
const DISPLAY = opt('--display', 'oled');
const WALL = opt('--wall', null);
const WALL_SIZE = opt('--wall-size', '32x8').split('x').map(Number);
const FLASH_SIZE = 2 * 1024 * 1024; // Raspberry Pi Pico: W25Q16, 2 MB
const log = (...a) => {
  if (!QUIET) process.stderr.write(`[vpico] ${a.join(' ')}\n`);
};

const simulator = new Simulator();
const mcu = simulator.rp2040;
mcu.logger = new ConsoleLogger(LogLevel.Error);

// --- bootrom, with the flash write functions replaced by breakpoints
const rom = new Uint32Array(bootromB1);
const romU16 = (a) => (rom[a >> 2] >>> ((a & 2) * 8)) & 0xffff;
const romSetU16 = (a, v) => {
  const sh = (a & 2) * 8;
  rom[a >> 2] = ((rom[a >> 2] & ~(0xffff << sh)) | (v << sh)) >>> 0;
};
const funcTable = romU16(0x14);
const romFuncs = {};
for (let p = funcTable; romU16(p) !== 0; p += 4) {
  const code = romU16(p);
  romFuncs[String.fromCharCode(code & 0xff, code >> 8)] = romU16(p + 2) & ~1;
}
const BKPT_ERASE = 0xe0;
const BKPT_PROGRAM = 0xe1;
romSetU16(romFuncs.RE, 0xbe00 | BKPT_ERASE);
romSetU16(romFuncs.RP, 0xbe00 | BKPT_PROGRAM);
mcu.loadBootrom(rom); // also resets the core and fills the flash with 0xff

// --- flash: the file first (the filesystem), then the firmware image over it
let fd;
if (fs.existsSync(FLASH_FILE)) {
  const buf = fs.readFileSync(FLASH_FILE);
  mcu.flash.set(buf.subarray(0, Math.min(buf.length, FLASH_SIZE)), 0);
  log(`flash: ${FLASH_FILE} (${buf.length} bytes)`);
}
if (!NO_UF2) {
  const f = fs.readFileSync(UF2);
  let n = 0;
  for (let off = 0; off + 512 <= f.length; off += 512) {
    const { flashAddress, payload } = decodeBlock(new Uint8Array(f.subarray(off, off + 512)));
    mcu.flash.set(payload, flashAddress - 0x10000000);
    n++;
  }
  log(`uf2: ${UF2} (${n} blocks)`);
}
fd = fs.openSync(FLASH_FILE, fs.existsSync(FLASH_FILE) ? 'r+' : 'w+');
fs.writeSync(fd, mcu.flash, 0, FLASH_SIZE, 0); // the firmware as now flashed, plus the fs
let flashOps = 0;
const persist = (addr, len) => {
  fs.writeSync(fd, mcu.flash, addr, len, addr);
  flashOps++;
};

const core = mcu.core;
// A power cut timed by the flash: `cut N` on the control socket tears the Nth flash operation from
// now (half of its bytes programmed or erased, the rest left as they were) and ends the emulator
// with status 4 there, which bridge.py takes for a power cut (it boots the board again).
let cutAt = 0;
mcu.onBreak = (code) => {
  const r = core.registers;
  if (code === BKPT_ERASE || code === BKPT_PROGRAM) {
    const erase = code === BKPT_ERASE;
    let addr;
    let len;
    if (erase) {
      // flash_range_erase(uint32_t addr, size_t count, uint32_t block_size, uint8_t block_cmd)
      addr = r[0] & (FLASH_SIZE - 1) & ~0xfff;
      len = Math.min(FLASH_SIZE, ((r[0] & (FLASH_SIZE - 1)) + r[1] + 0xfff) & ~0xfff) - addr;
    } else {
      // flash_range_program(uint32_t addr, const uint8_t *data, size_t count)
      addr = r[0] & (FLASH_SIZE - 1);
      len = Math.min(r[2], FLASH_SIZE - addr);
    }
    const torn = cutAt > 0 && --cutAt === 0;
    const n = torn ? len >> 1 : len;
    if (erase) mcu.flash.fill(0xff, addr, addr + n);
    else for (let i = 0; i < n; i++) mcu.flash[addr + i] &= mcu.readUint8(r[1] + i);
    if (n) persist(addr, n);
    board.event({ ev: 'flash', op: erase ? 'erase' : 'program', addr, len, t: Math.round(clock.nanos / 1000), torn });
    if (FLASH_TIMING) clock.tick(erase ? (len / 4096) * ERASE_NS : Math.ceil(len / 256) * PAGE_NS);
    if (torn) {
      log(`power cut during a flash ${erase ? 'erase' : 'program'} at ${addr.toString(16)} (${n} of ${len} bytes done)`);
      shutdown(4);
      return;
    }
  } else {
    log(`breakpoint ${code} at ${(core.PC - 2).toString(16)}: stopping`);
    shutdown(1);
    return;
  }
  core.PC = core.LR & ~1; // return from the patched ROM function
};

// --- hard reset (machine.reset(), watchdog timeout): end this emulator; the bridge restarts it
// The watchdog's REASON and SCRATCH registers survive that reboot on a real chip (the firmware's
// machine.reset_cause() reads REASON): they are handed over in FLASH_FILE.reset.
const watchdog = mcu.peripherals[0x40058];
const RESET_FILE = FLASH_FILE + '.reset';
if (fs.existsSync(RESET_FILE)) {
  try {
    const st = JSON.parse(fs.readFileSync(RESET_FILE, 'utf8'));
    watchdog.reason = st.reason;
    watchdog.scratchData.set(st.scratch);
    log(`rebooted by the watchdog (reason ${st.reason})`);
  } catch (e) {}
  fs.unlinkSync(RESET_FILE);
}
watchdog.onWatchdogTrigger = () => {
  log('watchdog reset');
  fs.writeFileSync(RESET_FILE, JSON.stringify({ reason: watchdog.reason, scratch: Array.from(watchdog.scratchData) }));
  shutdown(3);
};

function shutdown(code) {
  simulator.stop();
  if (CTL && code !== 3 && code !== 4) {
    try {
      fs.unlinkSync(CTL);
    } catch (e) {}
  }
  try {
    fs.fsyncSync(fd);
    fs.closeSync(fd);
  } catch (e) {}
  process.exit(code);
}
process.on('SIGTERM', () => shutdown(0));
process.on('SIGINT', () => shutdown(0));

// --- USB CDC: the host side
const usb = mcu.usbCtrl;
const cdc = new USBCDC(usb);
let hostQueue = []; // Buffers from stdin, not yet given to the device
let hostQueued = 0;
let pendingRead = -1; // size of the OUT transfer the device has armed, -1 if none
let connected = false;
cdc.onDeviceConnected = () => {
  connected = true;
  log('usb cdc connected');
  feed();
};
cdc.onSerialData = (value) => {
  process.stdout.write(value);
  board.serialTee(value);
};
usb.onEndpointRead = (endpoint, size) => {
  if (endpoint !== cdc.outEndpoint) return;
  pendingRead = size;
  feed();
};
function feed() {
  if (pendingRead < 0 || hostQueued === 0 || !connected) return;
  const n = Math.min(pendingRead, hostQueued);
  const out = new Uint8Array(n);
  let k = 0;
  while (k < n) {
    const head = hostQueue[0];
    const take = Math.min(head.length, n - k);
    out.set(head.subarray(0, take), k);
    k += take;
    if (take === head.length) hostQueue.shift();
    else hostQueue[0] = head.subarray(take);
  }
  hostQueued -= n;
  pendingRead = -1;
  usb.endpointReadDone(cdc.outEndpoint, out);
  kick();
}
process.stdin.on('data', (chunk) => {
  hostQueue.push(new Uint8Array(chunk));
  hostQueued += chunk.length;
  feed();
  kick();
});
process.stdin.on('end', () => shutdown(0));

// --- the board around the chip: OLED, keypad, control socket
const board = attachBoard(mcu, simulator.clock, {
  kick: () => kick(), log, i2cInstant: I2C_INSTANT, ctlPath: CTL,
  display: DISPLAY, wall: WALL, wallSize: WALL_SIZE,
  command: (c, a, reply) => {
    if (c !== 'cut') return false;
    cutAt = Math.max(0, Number(a[1] ?? 1) || 0); // 0: disarm
    reply(`ok ${flashOps} ${cutAt}\n`);
    return true;
  },
});

// --- go: start at the second-stage bootloader in flash, as the demo does
// The run loop is the Simulator's (125 MHz cycle clock; while the core sleeps in WFI/WFE the
// simulated clock jumps to the next alarm), except that it runs in ~25 ms slices between I/O
// and, when the core sleeps with no alarm pending (idle at the REPL), it stops until input comes.
core.PC = 0x10000000;
log('booting');
const clock = simulator.clock;
const CYCLE_NANOS = 1e9 / 125e6;
// Pacing: a bucket of emulated time the clock may spend, filled by wall time up to PACE_NS.
const PACE_NS = 50e6;
let paceTokens = PACE_NS;
let paceWall = performance.now();
let runTimer = null;
let idle = false;
function run() {
  runTimer = null;
  const t0 = Date.now();
  if (PACE) {
    const now = performance.now();
    paceTokens = Math.min(PACE_NS, paceTokens + (now - paceWall) * 1e6);
    paceWall = now;
  }
  const n0 = clock.nanos;
  for (;;) {
    for (let i = 0; i < 100000; i++) {
      if (core.waiting) {
        if (!clock.nextAlarm) {
          idle = true;
          paceTokens -= clock.nanos - n0;
          return;
        }
        const d = clock.nanosToNextAlarm;
        if (PACE) {
          const avail = paceTokens - (clock.nanos - n0);
          if (d > avail) {
            // sleep the rest in wall time (a few ms at a time: input may come meanwhile)
            if (avail > 0) clock.tick(avail);
            paceTokens -= clock.nanos - n0;
            runTimer = setTimeout(run, Math.max(1, Math.min(10, (d - Math.max(avail, 0)) / 1e6)));
            return;
          }
        }
        clock.tick(d);
      } else {
        clock.tick(core.executeInstruction() * CYCLE_NANOS);
      }
    }
    if (Date.now() - t0 >= 25) break;
  }
  paceTokens -= clock.nanos - n0;
  runTimer = setImmediate(run);
}
function kick() {
  if (idle && runTimer === null) {
    idle = false;
    runTimer = setImmediate(run);
  }
}
run();
if (process.env.PICO_DEBUG) {
  setInterval(() => log(`t=${(clock.nanos / 1e9).toFixed(3)}s pc=${core.PC.toString(16)} waiting=${core.waiting} idle=${idle} cycles=${core.cycles} flashops=${flashOps}`), 2000);
}
