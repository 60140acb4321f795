from django.urls import path, register_converter

from . import (
    views_auth,
    views_guest_keep,
    views_me,
    views_notifications,
    views_password,
    views_players,
    views_rooms,
    views_sign_ins,
    views_tokens,
)
from .inputs import RoomCodeConverter

register_converter(RoomCodeConverter, "room_code")

urlpatterns = [
    # A game's calls first: Django tries the patterns in order, and these are most of
    # the traffic (each pattern before them is a failed match on every move).
    path("rooms/<room_code:code>/state", views_rooms.StateView.as_view(), name="room-state"),
    path("rooms/<room_code:code>/actions", views_rooms.ActionsView.as_view(), name="room-actions"),
    path("rooms/<room_code:code>/events", views_rooms.EventsView.as_view(), name="room-events"),
    path("auth/register", views_auth.RegisterView.as_view(), name="register"),
    path("auth/token", views_auth.TokenView.as_view(), name="token"),
    path("auth/guest", views_auth.GuestView.as_view(), name="guest"),
    path("auth/logout", views_auth.LogoutView.as_view(), name="logout"),
    path("auth/password-reset", views_password.PasswordResetRequestView.as_view(), name="password-reset"),
    path("auth/password-reset/confirm", views_password.PasswordResetView.as_view(), name="password-reset-confirm"),
    path("me/account", views_guest_keep.GuestKeepView.as_view(), name="me-account"),
    path("me/password", views_password.PasswordChangeView.as_view(), name="me-password"),
    path("me", views_auth.MeView.as_view(), name="me"),
    path("me/turns", views_me.TurnsView.as_view(), name="me-turns"),
    path("me/sign-ins", views_sign_ins.SignInsView.as_view(), name="me-sign-ins"),
    path("me/sign-ins/<int:sign_in_id>", views_sign_ins.SignInView.as_view(), name="me-sign-in"),
    path("me/tokens", views_tokens.PersonalTokensView.as_view(), name="me-tokens"),
    path("me/tokens/<int:token_id>", views_tokens.PersonalTokenView.as_view(), name="me-token"),
    path("me/apps", views_tokens.AllowedAppsView.as_view(), name="me-apps"),
    path("me/apps/<int:app_id>", views_tokens.AllowedAppView.as_view(), name="me-app"),
    path("me/notifications", views_notifications.NotificationSettingsView.as_view(), name="me-notifications"),
    path(
        "me/notifications/email-confirmation",
        views_notifications.EmailConfirmationRequestView.as_view(),
        name="me-email-confirmation",
    ),
    path("email-confirmations", views_notifications.EmailConfirmationView.as_view(), name="email-confirmations"),
    path("me/push-subscriptions", views_notifications.PushSubscriptionsView.as_view(), name="me-push-subscriptions"),
    path("push/key", views_notifications.PushKeyView.as_view(), name="push-key"),
    path("games/", views_rooms.GamesView.as_view(), name="games"),
    path("players/<str:username>", views_players.PlayerView.as_view(), name="player"),
    path("players/<str:username>/matches", views_players.PlayerMatchesView.as_view(), name="player-matches"),
    path("leaderboard", views_players.LeaderboardView.as_view(), name="leaderboard"),
    path("rooms/", views_rooms.RoomListView.as_view(), name="rooms"),
    path("rooms/<room_code:code>/", views_rooms.RoomDetailView.as_view(), name="room"),
    path("rooms/<room_code:code>/qr.svg", views_rooms.RoomQRView.as_view(), name="room-qr"),
    path("rooms/<room_code:code>/join", views_rooms.JoinView.as_view(), name="room-join"),
    path("rooms/<room_code:code>/leave", views_rooms.LeaveView.as_view(), name="room-leave"),
    path("rooms/<room_code:code>/bots", views_rooms.BotsView.as_view(), name="room-bots"),
    path("rooms/<room_code:code>/start", views_rooms.StartView.as_view(), name="room-start"),
    path("rooms/<room_code:code>/client_seed", views_rooms.ClientSeedView.as_view(), name="room-client-seed"),
    path("rooms/<room_code:code>/reclaim", views_rooms.ReclaimView.as_view(), name="room-reclaim"),
    path("rooms/<room_code:code>/rematch", views_rooms.RematchView.as_view(), name="room-rematch"),
    path("rooms/<room_code:code>/rounds", views_rooms.RoundsView.as_view(), name="room-rounds"),
    path("rooms/<room_code:code>/replay", views_rooms.ReplayView.as_view(), name="room-replay"),
]
