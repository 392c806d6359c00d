# The broker side of the room view: a paho-mqtt client (MQTT 3.1.1, QoS 1) on its own thread
# that hands each message on the tables' topics (docs/network.md) to the asyncio loop.
import json
import threading

import paho.mqtt.client as mqtt
from paho.mqtt.enums import CallbackAPIVersion

KINDS = ("event", "state", "status")


def topics(club):
    """The subscriptions of the room view: one club's tables, or every club's (club "+")."""
    return [("pool/%s/table/+/%s" % (club, k), 1) for k in KINDS]


def parse(topic, payload):
    """(kind, "<club>/<n>", payload decoded) of a table's message, None if it is none of
    theirs or not readable (the view skips it)."""
    parts = topic.split("/")
    if len(parts) != 5 or parts[0] != "pool" or parts[2] != "table" or parts[4] not in KINDS:
        return None
    try:
        text = payload.decode("utf-8")
        data = text if parts[4] == "status" else json.loads(text)
    except (UnicodeDecodeError, ValueError):
        return None
    if parts[4] == "event" and not (isinstance(data, dict) and isinstance(data.get("ev"), dict)
                                    and "match" in data and isinstance(data.get("seq"), int)):
        return None
    if parts[4] == "state" and not isinstance(data, dict):
        return None
    return parts[4], parts[1] + "/" + parts[3], data


class Bridge:
    """Subscribes to the tables' topics and calls deliver(kind, tbl, payload) on the asyncio
    loop for each message. A persistent session (clean_session off, a fixed client id): the
    broker keeps the QoS 1 records that come while the view is down and sends them after."""

    def __init__(self, loop, deliver, host, port=1883, club="+", client_id="pool-club-room",
                 username=None, password=None, tls_ca=None):
        self.loop = loop
        self.deliver = deliver
        self.club = club
        self.host, self.port = host, port
        self.connected = False
        self.subscribed = threading.Event()  # the broker has acknowledged the subscription
        self.bad = 0  # messages on the tables' topics that were not readable
        c = self.client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id=client_id,
                                      clean_session=False, protocol=mqtt.MQTTv311)
        if username:
            c.username_pw_set(username, password)
        if tls_ca:
            c.tls_set(ca_certs=tls_ca)
        c.on_connect = self._on_connect
        c.on_disconnect = self._on_disconnect
        c.on_message = self._on_message
        c.on_subscribe = self._on_subscribe
        c.reconnect_delay_set(1, 10)

    def start(self):
        self.client.connect_async(self.host, self.port, keepalive=30)
        self.client.loop_start()

    def stop(self):
        self.client.disconnect()
        self.client.loop_stop()

    def resend(self, tbl, match, seq):
        """Ask table tbl ("<club>/<n>") to publish match's records again from seq on
        (docs/network.md "resend"): what the room lacks comes again, duplicates are dropped."""
        club, _, n = tbl.rpartition("/")
        self.client.publish("pool/%s/table/%s/resend" % (club, n),
                            json.dumps({"match": match, "from": seq}), 1)

    def _on_connect(self, client, userdata, flags, reason, props):
        if not reason.is_failure:
            self.connected = True
            client.subscribe(topics(self.club))

    def _on_subscribe(self, client, userdata, mid, reasons, props):
        self.subscribed.set()

    def _on_disconnect(self, client, userdata, flags, reason, props):
        self.connected = False

    def _on_message(self, client, userdata, msg):
        got = parse(msg.topic, msg.payload)
        if got is None:
            self.bad += 1
            return
        self.loop.call_soon_threadsafe(self.deliver, *got)
