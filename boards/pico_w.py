# Raspberry Pi Pico W / Pico 2 W profile: the Pico's pin map (boards/pico.py) and its Wi-Fi (the
# CYW43 chip). With a /secrets.json (make deploy SECRETS=FILE) the board publishes its journal to
# the club's MQTT broker (firmware/net.py, docs/network.md); without it no network code loads.
from boards.pico import PROFILE as _PICO

PROFILE = dict(_PICO)
PROFILE["board"] = "pico_w"
PROFILE["wifi"] = True  # firmware.net.start() loads the network code only where this is set


def build(profile=PROFILE):
    import machine

    import boards

    return boards.build(profile, machine)
