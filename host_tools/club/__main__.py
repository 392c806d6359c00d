# python -m host_tools.club: the club's room view (docs/club.md).
"""The room view subscribes to the tables' topics on an MQTT broker (docs/network.md), keeps
every record in SQLite (idempotent by table, match id and seq), replays each match through
the rules core and serves the room view, an OBS overlay per table and the results on HTTP.
Without --broker it starts a local Mosquitto on 127.0.0.1 (Debian's mosquitto package).

Pages: /  (the room view), /overlay/CLUB/N  (a 1920x1080 browser source, transparent),
/results  (and /results.json, /results.csv, /results/CLUB/N/MATCH.json|csv),
/api/room, /api/table/CLUB/N, /api/stream  (Server-Sent Events)."""
import asyncio
import signal
import sys

from host_tools import cli


def build_parser():
    ap = cli.parser("host_tools.club", __doc__)
    ap.add_argument("--broker", metavar="HOST",
                    help="the club's MQTT broker (default: start a local Mosquitto)")
    ap.add_argument("--port", type=int, default=None, metavar="N",
                    help="the broker's port (default 1883; with the local one, a free port)")
    ap.add_argument("--club", default="+", metavar="NAME",
                    help="only this club's tables (the <club> of pool/<club>/table/<n>/...)")
    ap.add_argument("--user", metavar="NAME", help="the room view's user on the broker")
    ap.add_argument("--password", metavar="TEXT", help="its password")
    ap.add_argument("--tls-ca", metavar="FILE", help="TLS to the broker, with this CA")
    ap.add_argument("--client-id", default="pool-club-room", metavar="ID",
                    help="the MQTT client id (its session keeps what comes while it is down)")
    ap.add_argument("--db", default="club.sqlite", metavar="FILE",
                    help="the SQLite store (default club.sqlite)")
    ap.add_argument("--http", default="127.0.0.1:8080", metavar="HOST:PORT",
                    help="where the web pages are served (default 127.0.0.1:8080)")
    ap.add_argument("--stale", type=float, default=600.0, metavar="SECONDS",
                    help="a table with no record or state this long is marked stale (600)")
    return ap


async def serve(args, ready=None):
    """Run the room view until cancelled. ready(hub, http_port, broker_port) once listening."""
    from aiohttp import web

    from host_tools.club import broker as mbroker
    from host_tools.club.mqtt import Bridge
    from host_tools.club.room import Room
    from host_tools.club.store import Store
    from host_tools.club.web import Hub, make_app

    local = None
    host, port = args.broker, args.port or 1883
    if host is None:
        local = mbroker.Mosquitto(port=args.port).start()
        host, port = "127.0.0.1", local.port
    store = Store(args.db)
    hub = Hub(Room(store, stale=args.stale))
    loop = asyncio.get_running_loop()
    bridge = Bridge(loop, hub.feed, host, port, club=args.club, client_id=args.client_id,
                    username=args.user, password=args.password, tls_ca=args.tls_ca)
    hub.ask = bridge.resend
    runner = web.AppRunner(make_app(hub))
    await runner.setup()
    h, _, p = args.http.rpartition(":")
    site = web.TCPSite(runner, h or "127.0.0.1", int(p))
    await site.start()
    bridge.start()
    # (ready once the broker keeps the view's session: what tables send from then on reaches it,
    # or after 5 s without a broker: the pages then say so)
    await loop.run_in_executor(None, bridge.subscribed.wait, 5)
    http_port = runner.addresses[0][1]
    print("room view: http://%s:%d/  broker %s:%d%s" % (
        h or "127.0.0.1", http_port, host, port, " (local Mosquitto)" if local else ""),
        flush=True)
    if ready:
        ready(hub, http_port, port)
    try:
        await asyncio.Event().wait()
    finally:
        bridge.stop()
        hub.close()
        await asyncio.sleep(0.05)  # the streams end
        await runner.cleanup()
        store.close()
        if local:
            local.stop()


def main(argv):
    args = build_parser().parse_args(argv)
    loop = asyncio.new_event_loop()
    task = loop.create_task(serve(args))
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, task.cancel)
        except (NotImplementedError, RuntimeError):
            pass
    try:
        loop.run_until_complete(task)
    except asyncio.CancelledError:
        pass
    except RuntimeError as e:
        print("club: %s" % e, file=sys.stderr)
        return 1
    finally:
        rest = [t for t in asyncio.all_tasks(loop) if not t.done()]
        for t in rest:
            t.cancel()
        if rest:
            loop.run_until_complete(asyncio.gather(*rest, return_exceptions=True))
        loop.close()
    return 0


if __name__ == "__main__":
    cli.run(main, sys.argv[1:])
