"""English dates the whole world reads the same way.

Django's English short format is the American month/day/year: a teacher in
Geneva or London read "12/05/2026" as the 12th of May. The day first with
the month as a word is unambiguous for every English reader."""

SHORT_DATE_FORMAT = "j M Y"
SHORT_DATETIME_FORMAT = "j M Y, H:i"
DATE_FORMAT = "j F Y"
DATETIME_FORMAT = "j F Y, H:i"
