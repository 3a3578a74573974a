"""Users, clubs and memberships (roles decide who may record, correct or only read)."""
