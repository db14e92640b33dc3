// Generated from the Rust definitions by `make api-types` (sidecar/src/api/types.rs): do not edit.

/** The largest picture the server takes, in bytes (content::limits). */
export const MAX_IMAGE_BYTES = 15728640 as const;

/** The section types the templates know, by the Polish names the owner picks them by. */
export const SECTION_TYPES = [
  {
    "type": "text",
    "name": "Tekst",
    "hint": "Zwykły tekst strony: akapity, śródtytuły, listy."
  },
  {
    "type": "callout",
    "name": "Ramka wyróżniona",
    "hint": "Tekst w wyróżnionej ramce, na przykład numery telefonów pomocy w kryzysie."
  },
  {
    "type": "faq",
    "name": "Pytania i odpowiedzi",
    "hint": "Każde pytanie pogrubione na początku akapitu albo jako śródtytuł ###, pod nim odpowiedź. Wyszukiwarki pokazują je jako FAQ."
  }
] as const;

/** The type of a new section. */
export const DEFAULT_SECTION_TYPE = "text" as const;

/** The length a page's description should have, in characters (content::limits). */
export const DESCRIPTION_LENGTH = {
  "max": 160,
  "min": 120
} as const;

/** What the footer says of the practice: its limits, a profile's address and the messages (content::footer). */
export const FOOTER_RULES = {
  "description": 300,
  "social": 6,
  "socialName": 40,
  "urlPattern": "^https://\\S*\\.\\S*$",
  "urlMax": 500,
  "messages": {
    "description": "Wpisz kilka słów o gabinecie: stopka je pokazuje.",
    "socialName": "Wpisz nazwę serwisu (do 40 znaków), na przykład Facebook.",
    "socialUrl": "Wklej pełny adres profilu, zaczynający się od https://."
  }
} as const;

/** The check digits of NIP and REGON, with what is said when one is wrong (content::identity). */
export const IDENTITY_RULES = {
  "nip": {
    "weights": [
      [
        6,
        5,
        7,
        2,
        3,
        4,
        5,
        6,
        7
      ]
    ],
    "tenIsZero": false,
    "lengthMessage": "NIP ma 10 cyfr (kreski i spacje można pominąć).",
    "checksumMessage": "Ten NIP ma błędną cyfrę kontrolną: sprawdź, czy nie ma literówki (wpis w CEIDG)."
  },
  "regon": {
    "weights": [
      [
        8,
        9,
        2,
        3,
        4,
        5,
        6,
        7
      ],
      [
        2,
        4,
        8,
        5,
        0,
        9,
        7,
        3,
        6,
        1,
        2,
        4,
        8
      ]
    ],
    "tenIsZero": true,
    "lengthMessage": "REGON ma 9 albo 14 cyfr.",
    "checksumMessage": "Ten REGON ma błędną cyfrę kontrolną: sprawdź, czy nie ma literówki (wpis w CEIDG)."
  }
} as const;

/** The audit log's events, in Polish (accounts::audit and the sidecar's audit). */
export const AUDIT_EVENTS = {
  "article_created": "Nowy artykuł",
  "article_deleted": "Usunięcie artykułu",
  "article_saved": "Zmiana artykułu",
  "article_undeleted": "Przywrócenie usuniętego artykułu",
  "backup_made": "Kopia zapasowa",
  "backup_restored": "Odtworzenie kopii zapasowej",
  "codes_throttled": "Zbyt wiele błędnych kodów: kolejne czekają",
  "facts_changed": "Zmiana danych gabinetu",
  "git_applied": "Zmiana z repozytorium opublikowana",
  "git_force_push": "Nadpisana historia repozytorium odrzucona",
  "git_pushed": "Zmiany wysłane przez git (token)",
  "git_refused": "Zmiana z repozytorium odrzucona",
  "git_token_created": "Nowy token dostępu przez git",
  "git_token_refused": "Odrzucony token dostępu przez git",
  "git_token_revoked": "Unieważnienie tokenu dostępu przez git",
  "image_deleted": "Usunięcie obrazu",
  "image_uploaded": "Przesłanie obrazu",
  "inbox_viewed": "Przegląd wiadomości",
  "message_deleted": "Usunięcie wiadomości",
  "message_opened": "Otwarcie wiadomości",
  "message_released": "Zwolnienie z kwarantanny",
  "message_retried": "Ponowna wysyłka wiadomości",
  "messages_erased": "Usunięcie wszystkich wiadomości osoby",
  "messages_exported": "Eksport wiadomości osoby",
  "metrics_token_refused": "Odrzucony token metryk",
  "other_sessions_ended": "Wylogowanie na innych urządzeniach",
  "page_saved": "Zmiana strony",
  "passkey_added": "Dodanie klucza dostępu",
  "passkey_removed": "Usunięcie klucza dostępu",
  "password_changed": "Zmiana hasła",
  "password_reset": "Nowe hasło ustawione kodem z e-maila",
  "prices_changed": "Zmiana cennika",
  "profile_added": "Dodanie terapeuty do zespołu",
  "profile_removed": "Usunięcie terapeuty z zespołu",
  "profile_saved": "Zmiana profilu terapeuty",
  "reauth_failed": "Nieudane potwierdzenie tożsamości",
  "reauthenticated": "Potwierdzenie tożsamości",
  "recovery_codes_renewed": "Nowe kody zapasowe",
  "reset_failed": "Nieudana zmiana hasła kodem",
  "reset_requested": "Prośba o kod do zmiany hasła",
  "restore_undone": "Cofnięcie przywrócenia wersji",
  "second_factor_failed": "Błędny kod z aplikacji",
  "second_factor_needed": "Hasło poprawne, oczekiwanie na kod",
  "service_saved": "Zmiana opisu usługi",
  "session_ended": "Zakończenie sesji",
  "sign_in": "Zalogowanie",
  "sign_in_failed": "Nieudane logowanie",
  "sign_in_refused": "Logowanie konta bez dostępu",
  "sign_out": "Wylogowanie",
  "team_reordered": "Zmiana kolejności zespołu",
  "totp_disabled": "Wyłączenie aplikacji uwierzytelniającej",
  "totp_enabled": "Włączenie aplikacji uwierzytelniającej",
  "version_restored": "Przywrócenie wersji z historii",
  "webhook_refused": "Odrzucone powiadomienie repozytorium",
  "words_changed": "Zmiana napisów strony"
} as const;
