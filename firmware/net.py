# The board on the club's network (docs/network.md): the journal published over MQTT 3.1.1 to the
# club's broker, QoS 1, offline first. Loaded only on a board with Wi-Fi and a /secrets.json
# (start()); the app calls Net.work(now, match) in its idle time, after the screen.
# umqtt.simple (micropython-lib: package.json deps, manifest.py require) does the protocol; its
# calls block, so each socket has a short timeout (_WAIT_MS) and a pass does at most one of:
# a Wi-Fi check, a connect, one publish (its PUBACK waited for), a look at the socket.
# What the broker acknowledged is kept on flash (_ACK, "N CRC SEQ": the match being published,
# its first record's CRC, the last record PUBACKed), written at most every _EVERY records or
# every second: after a power cut the board re-sends at most those records, duplicates the
# room view drops by (table, match, seq). A room view that lacks records (a broker restarted
# without its session) asks for them on ".../resend"; the board publishes again from there.
import json

from firmware import rtc
from firmware.journal import crc as _crc
from firmware.keys import ticks_diff

_WAIT_MS = 30  # a socket's timeout: a stalled broker holds a pass at most this long
_TLS_MS = 1000  # over TLS, each wait of the connection's handshake (its round trips)
_EVERY = 8  # PUBACKed records between two writes of _ACK (and at least every _SAVE_MS)
_SAVE_MS = 1000
_PING_MS = 20000  # keepalive 60 s: a ping when nothing was sent for this long
_LOOK_MS = 1000  # a look at the socket (a broker gone closes it) this often when idle
_BACKOFF = (1000, 2000, 5000, 10000, 30000)
_NTP_MS = 300000  # an NTP query unanswered: the next one this much later
_NTP_S = 0.2  # an NTP reply waited for this long (a pass's one blocking step)
_ACK = "net.ack"
HA = ("score", "players", "shooter")  # Home Assistant sensors (docs/network.md)


def load(path="secrets.json"):
    """The secrets (a dict) from path, or None if there is no such file or it is not valid."""
    try:
        with open(path) as f:
            s = json.loads(f.read(1024))
        if not isinstance(s, dict) or not s.get("broker") or not s.get("club"):
            return None
        int(s.get("table", 1))
        return s
    except (OSError, ValueError, TypeError):
        return None


def start(prof, store, path="secrets.json"):
    """A Net for the board (prof: its profile, store: firmware.store.Store), or None: no Wi-Fi on
    this board or no secrets."""
    if not prof.get("wifi"):
        return None
    s = load(path)
    return None if s is None else Net(s, store)


class Net:
    """link: "ok" (connected), "connecting", "offline"; said: a message key for the status row
    when something is wrong ("net_wifi" no Wi-Fi network, "net_pass" wrong Wi-Fi password,
    "net_broker" broker unreachable, "net_auth" broker refused the user), else None."""

    def __init__(self, secrets, store, client=None):
        s = secrets
        self.sec = s
        self.store = store
        self.club = str(s["club"])
        self.table = int(s.get("table", 1))
        self.base = "pool/%s/table/%d/" % (self.club, self.table)
        self.link = "offline"
        self.said = None
        self.c = None  # the umqtt client while connected
        self._mk = client  # (tests: a client factory)
        self._wlan = None
        self._t = 0  # now of the next step that may act (backoff)
        self._fails = 0
        self._todo = []  # topics and payloads to send once connected (status, discovery)
        self._last = 0  # when something was last sent
        self._look = 0
        self._log = None  # the match log seen last, and its (number, crc)
        self._id = None
        self._j = None  # an archived match's journal being published, and its number
        self._jn = -1
        self.n, self.crc, self.acked = self._read_ack()
        self._saved = self.acked
        self._t_save = 0
        self._stseq = -2  # the seq of the state last published (for the current match)
        self._rew = None  # a room view's ask (match number, crc, seq), taken at the next step
        self._tcp = None  # the connection's TCP socket (under TLS: the one the TLS runs on)
        self.sent = 0  # records published (PUBACKed) since boot
        self.retries = 0  # connections lost or refused since boot
        self.error = None  # the last OSError that dropped the connection
        self._nt = 0  # now of the next NTP query (the clock: once a boot), None: set by NTP

    # ------------------------------------------------------------ progress on flash

    def _path(self):
        r = self.store.root
        return r + "/" + _ACK if r else _ACK

    def _read_ack(self):
        try:
            with open(self._path()) as f:
                p = f.read(64).split()
            return int(p[0]), int(p[1]), int(p[2])
        except (OSError, ValueError, IndexError):
            return -1, 0, -1

    def _save(self, now):
        if (self.n, self.crc, self.acked) == getattr(self, "_was", None):
            return
        try:
            with open(self._path(), "w") as f:  # (littlefs commits it at close, whole)
                f.write("%d %d %d\n" % (self.n, self.crc, self.acked))
            self._was = (self.n, self.crc, self.acked)
            self._saved = self.acked
            self._t_save = now
        except OSError:
            pass  # a full flash: re-sent after a reboot, duplicates

    # ------------------------------------------------------------ the matches

    def _current(self, match):
        # (number, crc, log) of the match being played, or None (none on flash yet).
        log = match.log if match is not None else None
        head = getattr(log, "head", -1) if log is not None else -1
        if head is None or head < 0:
            return None
        if log is not self._log:
            nums = self.store.archived()
            n = nums[-1] + 1 if nums else 1
            r = list(log.records(0, 1))  # pyright: ignore[reportOptionalMemberAccess]
            self._log = log
            self._id = (n, _crc(r[0][3].encode()) if r else 0)
        return self._id[0], self._id[1], log  # pyright: ignore[reportOptionalSubscript]

    def _past(self, n):
        # The journal of archived match n, opened (kept while it is published), or None.
        if self._jn != n:
            self._close_past()
            self._j = self.store.past(n)
            self._jn = n
        return self._j

    def _close_past(self):
        if self._j is not None:
            self._j.close()
        self._j = None
        self._jn = -1

    def _next(self, now, match):
        # The next record to publish: (match id, topic, payload) or None, moving the pointer on
        # from a match published whole.
        cur = self._current(match)
        for _ in range(30):
            if self.n < 0 or cur is not None and self.n > cur[0]:
                if cur is None:
                    return None
                self.n, self.crc, self.acked = cur[0], cur[1], -1  # (first start, or a new flash)
                self._save(now)
            if cur is not None and self.n == cur[0]:
                log = cur[2]
                if self.crc != cur[1]:
                    self.crc, self.acked = cur[1], -1
                    self._save(now)
                return self._record(log, cur[0], cur[1])
            j = self._past(self.n)
            if j is not None:
                r0 = list(j.records(0, 1))
                c = _crc(r0[0][3].encode()) if r0 else 0
                if c != self.crc:
                    self.crc, self.acked = c, -1
                if self.acked < j.head:
                    return self._record(j, self.n, c)
            # published whole (or gone): the next archived one, else the current one
            self._close_past()
            later = [k for k in self.store.archived() if k > self.n]
            self.n = later[0] if later else (cur[0] if cur else self.n + 1)
            self.crc, self.acked = 0, -1
            if not later and cur is not None:
                self.crc = cur[1]
            self._save(now)
            if not later and cur is None:
                return None
        return None

    def _record(self, log, n, c):
        # Only what the journal's own reading gives (Journal.records): a record not readable
        # there (not yet on flash, or damaged) is not published, and waits.
        seq = self.acked + 1
        if seq > log.head:
            return None
        try:
            r = list(log.records(seq, seq + 1))[0]
        except (ValueError, IndexError):  # (journal.Damaged is a ValueError)
            return None
        ev = r[3] if r[2] in "eg" else '{"t":"undo"}'
        at = log.at(r)  # (seconds since 1970 UTC; none when the board's clock was not set)
        return seq, ('{"match":"%d-%08x","seq":%d,"depth":%d,%s"ev":%s}'
                     % (n, c, seq, r[1], "" if at is None else '"at":%d,' % at, ev)).encode()

    def _state(self, match, seq):
        st = match.state()
        n, c = self._id[0], self._id[1]  # pyright: ignore[reportOptionalSubscript]
        st["match"] = "%d-%08x" % (n, c)
        st["seq"] = seq
        st["names"] = list(match.get("names"))
        if st["game"] == "14.1":
            st["target"] = list(match.get("target"))
        else:
            st["race"] = list(match.get("race"))
        st["warned"] = [match.warned(0), match.warned(1)]
        ck = match.clock()
        st["clock"] = dict(ck) if ck else None
        return json.dumps(st).encode()

    # ------------------------------------------------------------ the link

    def _wifi(self):
        # True once Wi-Fi is up (or the port has no `network`: the unix VM's sockets).
        try:
            import network  # pyright: ignore[reportMissingImports]
        except ImportError:
            return True
        w = self._wlan
        if w is None:
            w = self._wlan = network.WLAN(network.STA_IF)
            w.active(True)
            try:
                w.config(pm=0xA11140)  # no power saving: replies within milliseconds
            except (ValueError, TypeError, OSError):
                pass
            w.connect(self.sec.get("ssid", ""), self.sec.get("password", ""))
            self.link = "connecting"
            return False
        if w.isconnected():
            return True
        st = w.status()
        if st == getattr(network, "STAT_WRONG_PASSWORD", -3):
            self.said = "net_pass"
        elif st == getattr(network, "STAT_NO_AP_FOUND", -2) or st < 0:
            self.said = "net_wifi"
        else:
            return False  # still joining
        self.link = "offline"
        self._wlan = None
        w.disconnect()
        return False

    def _connect(self, now):
        s = self.sec
        ssl = None
        if self._mk is not None:
            c = self._mk()
        else:
            from umqtt.simple import MQTTClient  # pyright: ignore[reportMissingImports]

            if s.get("tls"):
                from firmware.net_tls import Tls

                ssl = Tls(s)
            c = MQTTClient("pool-%s-t%d" % (self.club, self.table), s["broker"],
                           int(s.get("port", 8883 if ssl else 1883)), s.get("user") or None,
                           s.get("pass") or None, 60, ssl)
        c.set_last_will(self.base + "status", "offline", True, 1)
        c.connect(True, (_TLS_MS if ssl else _WAIT_MS) / 1000)
        self._tcp = ssl.tcp if ssl else c.sock
        try:  # umqtt writes a packet in pieces: without this, Nagle holds them for an ACK
            self._tcp.setsockopt(6, 1, 1)  # IPPROTO_TCP, TCP_NODELAY
        except (OSError, AttributeError):
            pass
        self.c = c
        # (first the subscription to the room views' asks, payload None)
        self._todo = [(self.base + "resend", None), (self.base + "status", b"online")]
        self._todo += self._ha()
        self._stseq = -2
        c.set_callback(self._ask)

    def _ask(self, topic, msg):
        # A room view's {"match": "N-CRC", "from": SEQ} on .../resend (it comes inside a
        # publish's or a look's wait): taken at the next step.
        try:
            d = json.loads(msg)
            n, c = d["match"].split("-")
            self._rew = (int(n), int(c, 16), int(d["from"]))
        except (ValueError, KeyError, TypeError, AttributeError):
            pass

    def _rewind(self):
        # Publish the asked match's records again from its SEQ on (an archived one, then the
        # ones after it, in turn); a match not yet published comes in its turn anyway.
        n, c, seq = self._rew  # pyright: ignore[reportGeneralTypeIssues]
        self._rew = None
        if n < self.n or n == self.n and c == self.crc and seq <= self.acked:
            self._close_past()
            self.n, self.crc, self.acked = n, c, max(seq, 0) - 1

    def _ha(self):
        # The Home Assistant discovery configs (retained): each a sensor of the state topic.
        out = []
        name = "pool_%s_t%d" % (self.club, self.table)
        tpl = {"score": "{% set p = value_json.players %}{% if value_json.game == '14.1' %}"
                        "{{p[0].score}}-{{p[1].score}}{% else %}{{p[0].racks}}-{{p[1].racks}}"
                        "{% endif %}",
               "players": "{{value_json.names[0]}} - {{value_json.names[1]}}",
               "shooter": "{% if value_json.shooter is none %}-{% else %}"
                          "{{value_json.names[value_json.shooter]}}{% endif %}"}
        for what in HA:
            cfg = {"name": what, "unique_id": name + "_" + what, "state_topic": self.base +
                   "state", "value_template": tpl[what], "availability_topic": self.base +
                   "status", "json_attributes_topic": self.base + "state",
                   "device": {"identifiers": [name], "name": "Pool table %d" % self.table,
                              "manufacturer": "pool-scoreboard", "model": "scoreboard"}}
            out.append(("homeassistant/sensor/%s_%s/config" % (name, what),
                        json.dumps(cfg).encode()))
        return out

    def _drop(self, now, why):
        c = self.c
        self.c = None
        if c is not None:
            try:
                c.sock.close()
            except Exception:  # noqa: BLE001
                pass
        self.retries += 1
        self.link = "offline" if why else "connecting"
        if why:
            self.said = why
        elif self._fails >= 2:  # (the third drop with nothing acknowledged between)
            self.said = "net_broker"
        self._t = now + _BACKOFF[min(self._fails, len(_BACKOFF) - 1)]
        self._fails += 1

    # ------------------------------------------------------------ a pass

    def work(self, now, match=None):
        """One step of the network's work (bounded: at most one socket operation of _WAIT_MS,
        or the NTP query's _NTP_S once a boot), for the app's idle time after the screen.
        match: the match being played (firmware.match.Match; its log the journal). Never
        raises: what fails drops the connection (error says why)."""
        if ticks_diff(now, self._t) < 0:
            return
        try:
            if self.c is None and not self._wifi():
                self._t = now + 500
                return
            if self._nt is not None and ticks_diff(now, self._nt) >= 0:
                self._ntp(now)
                return
            if self.c is None:
                self.link = "connecting"
                try:
                    self._connect(now)
                except OSError:
                    self._drop(now, "net_broker")
                    return
                except Exception as e:  # noqa: BLE001 - MQTTException(rc): refused
                    self._drop(now, "net_auth" if e.args and e.args[0] in (4, 5)
                               else "net_broker")
                    return
                self.link = "ok"
                self.said = None
                self._last = self._look = now  # (the backoff starts again at the first
                # PUBACK: a broker that takes connections but acknowledges nothing is tried
                # less and less often)
                return
            self._step(now, match)
        except Exception as e:  # noqa: BLE001 - OSError (the link), or umqtt's own: dropped,
            # connected again after the backoff; the app's screen never shows an error for it
            self.error = e
            self._drop(now, None)

    def _ntp(self, now):
        # The board's clock by NTP (micropython-lib's ntptime; secrets "ntp": the server, else
        # its pool.ntp.org), once Wi-Fi is up, once a boot: the times on the match records.
        self._nt = now + _NTP_MS
        try:
            import ntptime  # pyright: ignore[reportMissingImports]

            ntptime.host = self.sec.get("ntp") or ntptime.host
            ntptime.timeout = _NTP_S
            rtc.set_utc(ntptime.time() + rtc.OFF, True)  # (its port's epoch: 2000 on some)
            self._nt = None
        except Exception:  # noqa: BLE001 - no ntptime, no answer (OSError), a bad reply
            pass

    def _step(self, now, match):
        c = self.c
        self._tcp.settimeout(_WAIT_MS / 1000)  # pyright: ignore[reportOptionalMemberAccess]
        if self._todo:
            t, p = self._todo.pop(0)
            if p is not None:
                c.publish(t, p, True, 1)  # pyright: ignore[reportOptionalMemberAccess]
            else:
                try:
                    c.subscribe(t)  # pyright: ignore[reportOptionalMemberAccess]
                except OSError:
                    raise
                except Exception:  # noqa: BLE001 - refused (the ACL): no resends, no harm
                    pass
            self._last = now
            self._fails = 0
            return
        if self._rew is not None:
            self._rewind()
        nxt = self._next(now, match)
        if nxt is not None:
            seq, payload = nxt
            c.publish(self.base + "event", payload, False, 1)  # pyright: ignore
            self.acked = seq
            self.sent += 1
            self._last = now
            if self.acked - self._saved >= _EVERY:
                self._save(now)
            return
        if self.acked != self._saved and ticks_diff(now, self._t_save) >= _SAVE_MS:
            self._save(now)
            return
        cur = self._current(match)
        if cur is not None and self.n == cur[0] and self._stseq != self.acked:
            c.publish(self.base + "state", self._state(match, self.acked), True, 1)  # pyright: ignore
            self._stseq = self.acked
            self._last = now
            return
        if ticks_diff(now, self._last) >= _PING_MS:
            c.ping()  # pyright: ignore[reportOptionalMemberAccess]
            self._last = now
        elif ticks_diff(now, self._look) >= _LOOK_MS:
            self._look = now
            c.check_msg()  # pyright: ignore[reportOptionalMemberAccess]  (b"": gone, OSError)
