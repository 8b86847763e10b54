"""Ratings per player and game (`model`), the bots' calibrated fixed ratings (`bots`,
`bots.json`) and their calibration by simulation (`calibrate`)."""
