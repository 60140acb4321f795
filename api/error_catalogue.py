"""Every code the API can answer, for its OpenAPI description: each app's catalogue
put together (a code that two apps declare stops the server from starting)."""

from __future__ import annotations

from accounts.error_codes import CODES as ACCOUNTS_CODES
from core.errors import SHARED_CODES, Catalogue
from games.error_codes import CODES as GAMES_CODES
from grants.error_codes import CODES as GRANTS_CODES
from moderation.error_codes import CODES as MODERATION_CODES
from notifications.error_codes import CODES as NOTIFICATIONS_CODES
from privacy.error_codes import CODES as PRIVACY_CODES
from talk.error_codes import CODES as TALK_CODES

from .error_codes import CODES as API_CODES

# Ratings answer only shared codes. The games' come first: within a
# status, the document lists the codes in this order.
CATALOGUES = (
    GAMES_CODES,
    SHARED_CODES,
    API_CODES,
    ACCOUNTS_CODES,
    NOTIFICATIONS_CODES,
    GRANTS_CODES,
    PRIVACY_CODES,
    TALK_CODES,
    MODERATION_CODES,
)

# code -> (status, meaning), ordered by status.
ERROR_CODES = Catalogue.combined("api", CATALOGUES)
