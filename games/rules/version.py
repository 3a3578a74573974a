"""The engine version every verdict carries; bump it whenever a verdict could change."""
ENGINE_VERSION = "1.0.0"
