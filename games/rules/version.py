"""The engine version every verdict carries; bump it whenever a verdict could change."""
ENGINE_VERSION = "1.2.0"
#: the deal record format this engine reads (deal-record.md); a record may leave it out
RECORD_FORMAT = "loo-deal/1"
