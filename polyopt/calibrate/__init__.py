"""Calibration: ``python -m polyopt.calibrate`` (``thresholds``) measures from which sizes the CBLAS calls pay on
this machine and prints them as a target file."""
