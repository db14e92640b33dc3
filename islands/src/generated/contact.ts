// Generated from the Rust definitions by `make api-types` (sidecar/src/api/types.rs): do not edit.

/** The contact form's rules: labels, country codes, limits, the phone's pattern and messages (content::contact). */
export const CONTACT_RULES = {
  "countryCodes": [
    {
      "code": "+48",
      "country": "PL"
    },
    {
      "code": "+380",
      "country": "UA"
    },
    {
      "code": "+420",
      "country": "CZ"
    },
    {
      "code": "+421",
      "country": "SK"
    },
    {
      "code": "+370",
      "country": "LT"
    },
    {
      "code": "+371",
      "country": "LV"
    },
    {
      "code": "+372",
      "country": "EE"
    },
    {
      "code": "+49",
      "country": "DE"
    },
    {
      "code": "+44",
      "country": "GB"
    },
    {
      "code": "+1",
      "country": "US"
    },
    {
      "code": "+33",
      "country": "FR"
    },
    {
      "code": "+39",
      "country": "IT"
    }
  ],
  "labels": {
    "name": "Imię",
    "email": "E-mail",
    "countryCode": "Kierunkowy",
    "phone": "Telefon",
    "message": "Wiadomość",
    "earlyStart": "Jeśli proszę w tej wiadomości o umówienie wizyty, a wizyta ma się odbyć przed upływem 14 dni od jej umówienia, żądam, by odbyła się w tym terminie, i przyjmuję do wiadomości, że po jej odbyciu utracę prawo odstąpienia od umowy (§ 9 regulaminu)."
  },
  "defaultCountryCode": "+48",
  "phoneDigits": 9,
  "phonePattern": "^[\\s().\\-/]*(?:(?:\\+|00)?{code}[\\s().\\-/]*)?((?:\\d[\\s().\\-/]*){9})$",
  "phoneMaxLength": 30,
  "maxLength": {
    "name": 100,
    "email": 254,
    "message": 5000
  },
  "emailPattern": "^[^\\s@()<>,;:\\\\\"\\[\\]]+@[^\\s@()<>,;:\\\\\"\\[\\].]+(?:\\.[^\\s@()<>,;:\\\\\"\\[\\].]+)+$",
  "messages": {
    "nameRequired": "Podaj imię.",
    "nameInvalid": "Imię nie może zawierać znaków nowej linii.",
    "nameTooLong": "Imię może mieć najwyżej 100 znaków.",
    "emailRequired": "Podaj adres e-mail.",
    "emailInvalid": "Podaj poprawny adres e-mail, na przykład jan@example.pl.",
    "emailTooLong": "Adres e-mail może mieć najwyżej 254 znaki.",
    "phoneInvalid": "Numer telefonu powinien składać się z 9 cyfr",
    "countryCodeInvalid": "Wybierz numer kierunkowy z listy.",
    "fullPhoneInvalid": "Pełny numer telefonu nie zgadza się z numerem kierunkowym i numerem.",
    "messageRequired": "Napisz wiadomość.",
    "messageTooLong": "Wiadomość może mieć najwyżej 5000 znaków."
  }
} as const;
