# The club's room view: the tables' MQTT stream (docs/network.md) kept in SQLite, replayed
# through the rules core, served as a live web room view, OBS overlays and results (docs/club.md).
