"""Reports, the pupil's own page and the parent pages (issue 6)."""

from django.urls import URLPattern, URLResolver, path

from classroom import parents, reports

urlpatterns: list[URLPattern | URLResolver] = [
    path("teacher/classes/<int:class_id>/report/", reports.class_report, name="class_report"),
    path(
        "teacher/classes/<int:class_id>/report.csv",
        reports.class_report_csv,
        name="class_report_csv",
    ),
    path("teacher/classes/<int:class_id>/records.csv", reports.records_csv, name="records_csv"),
    path("teacher/pupils/<int:pupil_id>/report/", reports.pupil_report, name="pupil_report"),
    path(
        "teacher/pupils/<int:pupil_id>/parent-links/new/",
        parents.parent_link_create_view,
        name="parent_link_create",
    ),
    path(
        "teacher/parent-links/<int:link_id>/revoke/",
        parents.parent_link_revoke_view,
        name="parent_link_revoke",
    ),
    path(
        "teacher/parent-links/<int:link_id>/letter/",
        parents.parent_letter,
        name="parent_letter",
    ),
    path("p/<str:parent_token>", parents.parent_open, name="parent_open"),
    path("parent/", parents.parent_page, name="parent_page"),
    path("me/", parents.pupil_page, name="pupil_page"),
]
