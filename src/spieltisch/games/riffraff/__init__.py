"""Riff Raff: cargo on a swinging ship; the rules, the physics and the text notation."""
