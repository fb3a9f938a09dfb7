"""Every page of the classroom, with its URL and name (``classroom:<name>``)."""

from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, path, reverse_lazy

from classroom.forms import EmailAuthenticationForm
from classroom.views import join, monitor, parents, practice, reports, sessions, teacher

app_name = "classroom"

T = "classroom/teacher/"

urlpatterns: list[URLPattern | URLResolver] = [
    # ---------------------------------------------------------------- account
    path("teacher/signup/", teacher.signup, name="signup"),
    path(
        "teacher/signup/activate/<uidb64>/<token>/", teacher.signup_activate, name="signup_activate"
    ),
    path("teacher/signup/resend/", teacher.signup_resend, name="signup_resend"),
    path(
        "teacher/login/",
        auth_views.LoginView.as_view(
            template_name=T + "login.html",
            authentication_form=EmailAuthenticationForm,
            redirect_authenticated_user=True,
        ),
        name="login",
    ),
    path("teacher/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path(
        "teacher/password-reset/",
        # Django's view with its mails counted per address and per IP.
        teacher.PasswordResetView.as_view(
            template_name=T + "password_reset.html",
            email_template_name=T + "password_reset_email.txt",
            subject_template_name=T + "password_reset_subject.txt",
            success_url=reverse_lazy("classroom:password_reset_done"),
        ),
        name="password_reset",
    ),
    path(
        "teacher/password-reset/sent/",
        auth_views.PasswordResetDoneView.as_view(template_name=T + "password_reset_done.html"),
        name="password_reset_done",
    ),
    path(
        "teacher/password-reset/<uidb64>/<token>/",
        auth_views.PasswordResetConfirmView.as_view(
            template_name=T + "password_reset_confirm.html",
            success_url=reverse_lazy("classroom:password_reset_complete"),
        ),
        name="password_reset_confirm",
    ),
    path(
        "teacher/password-reset/done/",
        auth_views.PasswordResetCompleteView.as_view(
            template_name=T + "password_reset_complete.html"
        ),
        name="password_reset_complete",
    ),
    # ---------------------------------------------------------------- classes & pupils
    path("teacher/", teacher.dashboard, name="dashboard"),
    path("teacher/classes/new/", teacher.class_new, name="class_new"),
    path("teacher/classes/<int:class_id>/", teacher.class_detail, name="class_detail"),
    path("teacher/classes/<int:class_id>/edit/", teacher.class_edit, name="class_edit"),
    path("teacher/classes/<int:class_id>/delete/", teacher.class_delete, name="class_delete"),
    path("teacher/classes/<int:class_id>/pupils/add/", teacher.pupils_add, name="pupils_add"),
    path("teacher/classes/<int:class_id>/cards/", teacher.class_cards, name="class_cards"),
    path(
        "teacher/classes/<int:class_id>/link/rotate/",
        teacher.class_link_rotate,
        name="class_link_rotate",
    ),
    path("teacher/classes/<int:class_id>/sessions/new/", sessions.session_new, name="session_new"),
    path("teacher/pupils/<int:pupil_id>/edit/", teacher.pupil_edit, name="pupil_edit"),
    path(
        "teacher/pupils/<int:pupil_id>/regenerate/",
        teacher.pupil_regenerate,
        name="pupil_regenerate",
    ),
    path("teacher/pupils/<int:pupil_id>/unlock/", teacher.pupil_unlock, name="pupil_unlock"),
    path(
        "teacher/classes/<int:class_id>/unlock-all/",
        teacher.pupils_unlock_all,
        name="pupils_unlock_all",
    ),
    path("teacher/pupils/<int:pupil_id>/delete/", teacher.pupil_delete, name="pupil_delete"),
    # ---------------------------------------------------------------- sessions
    path("teacher/sessions/<int:session_id>/", sessions.session_detail, name="session_detail"),
    path("teacher/sessions/<int:session_id>/board/", sessions.session_board, name="session_board"),
    path(
        "teacher/sessions/<int:session_id>/options/",
        sessions.session_options,
        name="session_options",
    ),
    path("teacher/sessions/<int:session_id>/end/", sessions.session_end, name="session_end"),
    path(
        "teacher/sessions/<int:session_id>/projector/",
        sessions.session_projector,
        name="session_projector",
    ),
    path("teacher/sessions/<int:session_id>/groups/", sessions.groups_make, name="groups_make"),
    path("teacher/sessions/<int:session_id>/groups/add/", sessions.group_add, name="group_add"),
    path(
        "teacher/sessions/<int:session_id>/robots/",
        sessions.session_robots_set,
        name="session_robots",
    ),
    path(
        "teacher/sessions/<int:session_id>/pupils/<int:pupil_id>/move/",
        sessions.pupil_move,
        name="pupil_move",
    ),
    path("teacher/sessions/<int:session_id>/start/", sessions.tables_start, name="tables_start"),
    path("teacher/groups/<int:group_id>/bots/", sessions.group_bots, name="group_bots"),
    path("teacher/groups/<int:group_id>/options/", sessions.group_options, name="group_options"),
    path(
        "teacher/tablets/<int:login_id>/sign-out/", sessions.tablet_sign_out, name="tablet_sign_out"
    ),
    # ---------------------------------------------------------------- pupils on tablets
    path("join", join.join, name="join"),
    path("join/names/", join.join_names, name="join_names"),
    path("join/pupil/<int:pupil_id>/", join.join_pupil, name="join_pupil"),
    path("join/back/", join.join_back, name="join_back"),
    path("me/sign-out/", join.pupil_sign_out, name="pupil_sign_out"),
    path("c/<str:link_token>", join.class_link, name="class_link"),
    path("lobby/", join.lobby, name="lobby"),
    path("lobby/where/", join.lobby_where, name="lobby_where"),
    path(
        "teacher/sessions/<int:session_id>/monitor/",
        monitor.monitor,
        name="monitor",
    ),
    path("teacher/tables/<int:table_id>/monitor/", monitor.table_monitor, name="table_monitor"),
    # ---------------------------------------------------------------- reports, parents, pupil page
    path("teacher/classes/<int:class_id>/report/", reports.class_report, name="class_report"),
    path(
        "teacher/classes/<int:class_id>/report.csv",
        reports.class_report_csv,
        name="class_report_csv",
    ),
    path("teacher/classes/<int:class_id>/records.csv", reports.records_csv, name="records_csv"),
    path("teacher/pupils/<int:pupil_id>/report/", reports.pupil_report, name="pupil_report"),
    path("teacher/pupils/<int:pupil_id>/export.json", reports.pupil_export, name="pupil_export"),
    path(
        "teacher/pupils/<int:pupil_id>/targeted-practice/",
        reports.pupil_assign_practice,
        name="pupil_assign_practice",
    ),
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
    # ---------------------------------------------------------------- solo practice, "Rejouer"
    path("practice/", practice.practice_entry, name="practice_entry"),
    path("practice/setup/", practice.practice_setup, name="practice_setup"),
    path("practice/<str:link_token>/", practice.practice_names, name="practice_names"),
    path(
        "practice/<str:link_token>/pupil/<int:pupil_id>/",
        practice.practice_pupil,
        name="practice_pupil",
    ),
    path("tables/<int:table_id>/rematch/", practice.table_rematch, name="table_rematch"),
]
