from django.contrib.auth import views as auth_views
from django.urls import URLPattern, URLResolver, include, path, reverse_lazy

from classroom import join_views, monitor, views
from classroom.forms import EmailAuthenticationForm

app_name = "classroom"

T = "classroom/teacher/"

urlpatterns: list[URLPattern | URLResolver] = [
    # ---------------------------------------------------------------- account
    path("teacher/signup/", views.signup, name="signup"),
    path(
        "teacher/signup/activate/<uidb64>/<token>/", views.signup_activate, name="signup_activate"
    ),
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
        auth_views.PasswordResetView.as_view(
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
    path("teacher/", views.dashboard, name="dashboard"),
    path("teacher/classes/new/", views.class_new, name="class_new"),
    path("teacher/classes/<int:class_id>/", views.class_detail, name="class_detail"),
    path("teacher/classes/<int:class_id>/edit/", views.class_edit, name="class_edit"),
    path("teacher/classes/<int:class_id>/delete/", views.class_delete, name="class_delete"),
    path("teacher/classes/<int:class_id>/pupils/add/", views.pupils_add, name="pupils_add"),
    path("teacher/classes/<int:class_id>/cards/", views.class_cards, name="class_cards"),
    path("teacher/classes/<int:class_id>/sessions/new/", views.session_new, name="session_new"),
    path("teacher/pupils/<int:pupil_id>/edit/", views.pupil_edit, name="pupil_edit"),
    path(
        "teacher/pupils/<int:pupil_id>/regenerate/", views.pupil_regenerate, name="pupil_regenerate"
    ),
    path("teacher/pupils/<int:pupil_id>/unlock/", views.pupil_unlock, name="pupil_unlock"),
    path("teacher/pupils/<int:pupil_id>/delete/", views.pupil_delete, name="pupil_delete"),
    # ---------------------------------------------------------------- sessions
    path("teacher/sessions/<int:session_id>/", views.session_detail, name="session_detail"),
    path("teacher/sessions/<int:session_id>/board/", views.session_board, name="session_board"),
    path(
        "teacher/sessions/<int:session_id>/options/", views.session_options, name="session_options"
    ),
    path("teacher/sessions/<int:session_id>/end/", views.session_end, name="session_end"),
    path(
        "teacher/sessions/<int:session_id>/projector/",
        views.session_projector,
        name="session_projector",
    ),
    path("teacher/sessions/<int:session_id>/groups/", views.groups_make, name="groups_make"),
    path("teacher/sessions/<int:session_id>/groups/add/", views.group_add, name="group_add"),
    path(
        "teacher/sessions/<int:session_id>/pupils/<int:pupil_id>/move/",
        views.pupil_move,
        name="pupil_move",
    ),
    path("teacher/sessions/<int:session_id>/start/", views.tables_start, name="tables_start"),
    path("teacher/groups/<int:group_id>/bots/", views.group_bots, name="group_bots"),
    path("teacher/groups/<int:group_id>/options/", views.group_options, name="group_options"),
    path("teacher/tablets/<int:login_id>/sign-out/", views.tablet_sign_out, name="tablet_sign_out"),
    # ---------------------------------------------------------------- pupils on tablets
    path("join", join_views.join, name="join"),
    path("join/names/", join_views.join_names, name="join_names"),
    path("join/pupil/<int:pupil_id>/", join_views.join_pupil, name="join_pupil"),
    path("join/back/", join_views.join_back, name="join_back"),
    path("c/<str:link_token>", join_views.class_link, name="class_link"),
    path("lobby/", join_views.lobby, name="lobby"),
    path("lobby/where/", join_views.lobby_where, name="lobby_where"),
    path(
        "teacher/sessions/<int:session_id>/monitor/",
        monitor.monitor,
        name="monitor",
    ),
    # Reports, pupil and parent pages (classroom/report_urls.py) and solo
    # practice (classroom/practice_urls.py) live in their own modules.
    path("", include("classroom.report_urls")),
    path("", include("classroom.practice_urls")),
]
