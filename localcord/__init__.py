"""A local Discord on loopback for the real bot process: end-to-end, fault and load
tests, and a playground that needs no token. See docs/localcord.md."""
