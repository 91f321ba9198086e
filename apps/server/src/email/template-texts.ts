// The words of the built-in e-mail templates in every supported locale (@gatehouse/contract's SUPPORTED_LOCALES).
// templates.ts lays them out; the English ones are the contract's default subjects (WIRE.md §5.2), word for word.
// `{{ name }}` placeholders stay as they are in every language: they are filled when the e-mail is rendered.
import type { SupportedLocale } from "@gatehouse/contract/locales";

type Message = { subject: string; heading: string; line: string; button: string };

export type EmailTexts = {
  orOpenLink: string;
  ignore: string;
  email_verification: Message;
  password_reset: Message;
  magic_link: Message & { oneClick: string };
  team_invitation: Message;
  sign_in_invitation: Message;
};

export const EMAIL_TEXTS: Record<SupportedLocale, EmailTexts> = {
  en: {
    orOpenLink: "Or open this link:",
    ignore: "If you did not expect this e-mail, you can ignore it.",
    email_verification: {
      subject: "Verify your email at {{ projectDisplayName }}",
      heading: "Verify your e-mail address",
      line: "Please confirm this e-mail address for your account at {{ projectDisplayName }}.",
      button: "Verify e-mail",
    },
    password_reset: {
      subject: "Reset your password at {{ projectDisplayName }}",
      heading: "Reset your password",
      line: "Someone asked to reset the password of your account at {{ projectDisplayName }}.",
      button: "Reset password",
    },
    magic_link: {
      subject: "Sign in to {{ projectDisplayName }}: Your code is {{ otp }}",
      heading: "Sign in to {{ projectDisplayName }}",
      line: "Enter this code to sign in:",
      oneClick: "Or sign in with one click:",
      button: "Sign in",
    },
    team_invitation: {
      subject: "You have been invited to join {{ teamDisplayName }}",
      heading: "Join {{ teamDisplayName }}",
      line: "You have been invited to join the team {{ teamDisplayName }} at {{ projectDisplayName }}.",
      button: "Accept invitation",
    },
    sign_in_invitation: {
      subject: "You have been invited to sign in to {{ projectDisplayName }}",
      heading: "Sign in to {{ projectDisplayName }}",
      line: "You have been invited to sign in to {{ projectDisplayName }}.",
      button: "Sign in",
    },
  },
  de: {
    orOpenLink: "Oder öffne diesen Link:",
    ignore: "Wenn du diese E-Mail nicht erwartet hast, kannst du sie ignorieren.",
    email_verification: {
      subject: "Bestätige deine E-Mail-Adresse bei {{ projectDisplayName }}",
      heading: "Bestätige deine E-Mail-Adresse",
      line: "Bitte bestätige diese E-Mail-Adresse für dein Konto bei {{ projectDisplayName }}.",
      button: "E-Mail bestätigen",
    },
    password_reset: {
      subject: "Setze dein Passwort bei {{ projectDisplayName }} zurück",
      heading: "Passwort zurücksetzen",
      line: "Jemand hat angefordert, das Passwort deines Kontos bei {{ projectDisplayName }} zurückzusetzen.",
      button: "Passwort zurücksetzen",
    },
    magic_link: {
      subject: "Anmeldung bei {{ projectDisplayName }}: Dein Code lautet {{ otp }}",
      heading: "Bei {{ projectDisplayName }} anmelden",
      line: "Gib diesen Code ein, um dich anzumelden:",
      oneClick: "Oder melde dich mit einem Klick an:",
      button: "Anmelden",
    },
    team_invitation: {
      subject: "Du wurdest in das Team {{ teamDisplayName }} eingeladen",
      heading: "{{ teamDisplayName }} beitreten",
      line: "Du wurdest eingeladen, dem Team {{ teamDisplayName }} bei {{ projectDisplayName }} beizutreten.",
      button: "Einladung annehmen",
    },
    sign_in_invitation: {
      subject: "Du wurdest eingeladen, dich bei {{ projectDisplayName }} anzumelden",
      heading: "Bei {{ projectDisplayName }} anmelden",
      line: "Du wurdest eingeladen, dich bei {{ projectDisplayName }} anzumelden.",
      button: "Anmelden",
    },
  },
  fr: {
    orOpenLink: "Ou ouvrez ce lien :",
    ignore: "Si vous n’attendiez pas cet e-mail, vous pouvez l’ignorer.",
    email_verification: {
      subject: "Vérifiez votre adresse e-mail sur {{ projectDisplayName }}",
      heading: "Vérifiez votre adresse e-mail",
      line: "Veuillez confirmer cette adresse e-mail pour votre compte sur {{ projectDisplayName }}.",
      button: "Vérifier l’e-mail",
    },
    password_reset: {
      subject: "Réinitialisez votre mot de passe sur {{ projectDisplayName }}",
      heading: "Réinitialiser votre mot de passe",
      line: "Quelqu’un a demandé la réinitialisation du mot de passe de votre compte sur {{ projectDisplayName }}.",
      button: "Réinitialiser le mot de passe",
    },
    magic_link: {
      subject: "Connexion à {{ projectDisplayName }} : votre code est {{ otp }}",
      heading: "Se connecter à {{ projectDisplayName }}",
      line: "Saisissez ce code pour vous connecter :",
      oneClick: "Ou connectez-vous en un clic :",
      button: "Se connecter",
    },
    team_invitation: {
      subject: "Vous êtes invité à rejoindre {{ teamDisplayName }}",
      heading: "Rejoindre {{ teamDisplayName }}",
      line: "Vous êtes invité à rejoindre l’équipe {{ teamDisplayName }} sur {{ projectDisplayName }}.",
      button: "Accepter l’invitation",
    },
    sign_in_invitation: {
      subject: "Vous êtes invité à vous connecter à {{ projectDisplayName }}",
      heading: "Se connecter à {{ projectDisplayName }}",
      line: "Vous êtes invité à vous connecter à {{ projectDisplayName }}.",
      button: "Se connecter",
    },
  },
  es: {
    orOpenLink: "O abre este enlace:",
    ignore: "Si no esperabas este correo, puedes ignorarlo.",
    email_verification: {
      subject: "Verifica tu correo electrónico en {{ projectDisplayName }}",
      heading: "Verifica tu dirección de correo electrónico",
      line: "Confirma esta dirección de correo electrónico para tu cuenta en {{ projectDisplayName }}.",
      button: "Verificar correo",
    },
    password_reset: {
      subject: "Restablece tu contraseña en {{ projectDisplayName }}",
      heading: "Restablece tu contraseña",
      line: "Alguien ha solicitado restablecer la contraseña de tu cuenta en {{ projectDisplayName }}.",
      button: "Restablecer contraseña",
    },
    magic_link: {
      subject: "Inicia sesión en {{ projectDisplayName }}: tu código es {{ otp }}",
      heading: "Inicia sesión en {{ projectDisplayName }}",
      line: "Introduce este código para iniciar sesión:",
      oneClick: "O inicia sesión con un clic:",
      button: "Iniciar sesión",
    },
    team_invitation: {
      subject: "Te han invitado a unirte a {{ teamDisplayName }}",
      heading: "Únete a {{ teamDisplayName }}",
      line: "Te han invitado a unirte al equipo {{ teamDisplayName }} en {{ projectDisplayName }}.",
      button: "Aceptar invitación",
    },
    sign_in_invitation: {
      subject: "Te han invitado a iniciar sesión en {{ projectDisplayName }}",
      heading: "Inicia sesión en {{ projectDisplayName }}",
      line: "Te han invitado a iniciar sesión en {{ projectDisplayName }}.",
      button: "Iniciar sesión",
    },
  },
  "pt-BR": {
    orOpenLink: "Ou abra este link:",
    ignore: "Se você não esperava este e-mail, pode ignorá-lo.",
    email_verification: {
      subject: "Verifique seu e-mail em {{ projectDisplayName }}",
      heading: "Verifique seu endereço de e-mail",
      line: "Confirme este endereço de e-mail para sua conta em {{ projectDisplayName }}.",
      button: "Verificar e-mail",
    },
    password_reset: {
      subject: "Redefina sua senha em {{ projectDisplayName }}",
      heading: "Redefina sua senha",
      line: "Alguém pediu para redefinir a senha da sua conta em {{ projectDisplayName }}.",
      button: "Redefinir senha",
    },
    magic_link: {
      subject: "Entrar em {{ projectDisplayName }}: seu código é {{ otp }}",
      heading: "Entrar em {{ projectDisplayName }}",
      line: "Digite este código para entrar:",
      oneClick: "Ou entre com um clique:",
      button: "Entrar",
    },
    team_invitation: {
      subject: "Você foi convidado para entrar em {{ teamDisplayName }}",
      heading: "Entre em {{ teamDisplayName }}",
      line: "Você foi convidado para entrar na equipe {{ teamDisplayName }} em {{ projectDisplayName }}.",
      button: "Aceitar convite",
    },
    sign_in_invitation: {
      subject: "Você foi convidado para entrar em {{ projectDisplayName }}",
      heading: "Entrar em {{ projectDisplayName }}",
      line: "Você foi convidado para entrar em {{ projectDisplayName }}.",
      button: "Entrar",
    },
  },
  it: {
    orOpenLink: "Oppure apri questo link:",
    ignore: "Se non ti aspettavi questa e-mail, puoi ignorarla.",
    email_verification: {
      subject: "Verifica la tua e-mail su {{ projectDisplayName }}",
      heading: "Verifica il tuo indirizzo e-mail",
      line: "Conferma questo indirizzo e-mail per il tuo account su {{ projectDisplayName }}.",
      button: "Verifica e-mail",
    },
    password_reset: {
      subject: "Reimposta la password su {{ projectDisplayName }}",
      heading: "Reimposta la password",
      line: "Qualcuno ha chiesto di reimpostare la password del tuo account su {{ projectDisplayName }}.",
      button: "Reimposta password",
    },
    magic_link: {
      subject: "Accedi a {{ projectDisplayName }}: il tuo codice è {{ otp }}",
      heading: "Accedi a {{ projectDisplayName }}",
      line: "Inserisci questo codice per accedere:",
      oneClick: "Oppure accedi con un clic:",
      button: "Accedi",
    },
    team_invitation: {
      subject: "Sei stato invitato a unirti a {{ teamDisplayName }}",
      heading: "Unisciti a {{ teamDisplayName }}",
      line: "Sei stato invitato a unirti al team {{ teamDisplayName }} su {{ projectDisplayName }}.",
      button: "Accetta l’invito",
    },
    sign_in_invitation: {
      subject: "Sei stato invitato ad accedere a {{ projectDisplayName }}",
      heading: "Accedi a {{ projectDisplayName }}",
      line: "Sei stato invitato ad accedere a {{ projectDisplayName }}.",
      button: "Accedi",
    },
  },
  ja: {
    orOpenLink: "または、こちらのリンクを開いてください:",
    ignore: "このメールに心当たりがない場合は、無視してください。",
    email_verification: {
      subject: "{{ projectDisplayName }} のメールアドレスを確認してください",
      heading: "メールアドレスの確認",
      line: "{{ projectDisplayName }} のアカウントのメールアドレスとして、このアドレスを確認してください。",
      button: "メールアドレスを確認",
    },
    password_reset: {
      subject: "{{ projectDisplayName }} のパスワードを再設定",
      heading: "パスワードの再設定",
      line: "{{ projectDisplayName }} のあなたのアカウントのパスワード再設定がリクエストされました。",
      button: "パスワードを再設定",
    },
    magic_link: {
      subject: "{{ projectDisplayName }} へのサインイン: コードは {{ otp }} です",
      heading: "{{ projectDisplayName }} にサインイン",
      line: "サインインするには、このコードを入力してください:",
      oneClick: "または、ワンクリックでサインイン:",
      button: "サインイン",
    },
    team_invitation: {
      subject: "{{ teamDisplayName }} に招待されました",
      heading: "{{ teamDisplayName }} に参加",
      line: "{{ projectDisplayName }} のチーム {{ teamDisplayName }} に招待されました。",
      button: "招待を承諾",
    },
    sign_in_invitation: {
      subject: "{{ projectDisplayName }} へのサインインに招待されました",
      heading: "{{ projectDisplayName }} にサインイン",
      line: "{{ projectDisplayName }} へのサインインに招待されました。",
      button: "サインイン",
    },
  },
  ko: {
    orOpenLink: "또는 다음 링크를 여세요:",
    ignore: "이 이메일을 요청하지 않았다면 무시하셔도 됩니다.",
    email_verification: {
      subject: "{{ projectDisplayName }} 이메일 인증",
      heading: "이메일 주소 인증",
      line: "{{ projectDisplayName }} 계정의 이메일 주소를 확인해 주세요.",
      button: "이메일 인증",
    },
    password_reset: {
      subject: "{{ projectDisplayName }} 비밀번호 재설정",
      heading: "비밀번호 재설정",
      line: "{{ projectDisplayName }}에서 회원님 계정의 비밀번호 재설정이 요청되었습니다.",
      button: "비밀번호 재설정",
    },
    magic_link: {
      subject: "{{ projectDisplayName }} 로그인: 코드는 {{ otp }}입니다",
      heading: "{{ projectDisplayName }}에 로그인",
      line: "로그인하려면 다음 코드를 입력하세요:",
      oneClick: "또는 한 번의 클릭으로 로그인하세요:",
      button: "로그인",
    },
    team_invitation: {
      subject: "{{ teamDisplayName }} 팀에 초대되었습니다",
      heading: "{{ teamDisplayName }} 참여",
      line: "{{ projectDisplayName }}의 {{ teamDisplayName }} 팀에 초대되었습니다.",
      button: "초대 수락",
    },
    sign_in_invitation: {
      subject: "{{ projectDisplayName }}에 로그인하도록 초대되었습니다",
      heading: "{{ projectDisplayName }}에 로그인",
      line: "{{ projectDisplayName }}에 로그인하도록 초대되었습니다.",
      button: "로그인",
    },
  },
  "zh-Hans": {
    orOpenLink: "或打开此链接：",
    ignore: "如果你没有预期收到这封邮件，可以忽略它。",
    email_verification: {
      subject: "验证你在 {{ projectDisplayName }} 的电子邮箱",
      heading: "验证你的电子邮箱地址",
      line: "请为你在 {{ projectDisplayName }} 的账号确认此电子邮箱地址。",
      button: "验证邮箱",
    },
    password_reset: {
      subject: "重置你在 {{ projectDisplayName }} 的密码",
      heading: "重置密码",
      line: "有人请求重置你在 {{ projectDisplayName }} 的账号密码。",
      button: "重置密码",
    },
    magic_link: {
      subject: "登录 {{ projectDisplayName }}：你的验证码是 {{ otp }}",
      heading: "登录 {{ projectDisplayName }}",
      line: "输入此验证码即可登录：",
      oneClick: "或一键登录：",
      button: "登录",
    },
    team_invitation: {
      subject: "你受邀加入 {{ teamDisplayName }}",
      heading: "加入 {{ teamDisplayName }}",
      line: "你受邀加入 {{ projectDisplayName }} 上的团队 {{ teamDisplayName }}。",
      button: "接受邀请",
    },
    sign_in_invitation: {
      subject: "你受邀登录 {{ projectDisplayName }}",
      heading: "登录 {{ projectDisplayName }}",
      line: "你受邀登录 {{ projectDisplayName }}。",
      button: "登录",
    },
  },
  "zh-Hant": {
    orOpenLink: "或開啟此連結：",
    ignore: "如果你沒有預期收到這封電子郵件，可以忽略它。",
    email_verification: {
      subject: "驗證你在 {{ projectDisplayName }} 的電子郵件",
      heading: "驗證你的電子郵件地址",
      line: "請為你在 {{ projectDisplayName }} 的帳戶確認此電子郵件地址。",
      button: "驗證電子郵件",
    },
    password_reset: {
      subject: "重設你在 {{ projectDisplayName }} 的密碼",
      heading: "重設密碼",
      line: "有人要求重設你在 {{ projectDisplayName }} 的帳戶密碼。",
      button: "重設密碼",
    },
    magic_link: {
      subject: "登入 {{ projectDisplayName }}：你的驗證碼是 {{ otp }}",
      heading: "登入 {{ projectDisplayName }}",
      line: "輸入此驗證碼即可登入：",
      oneClick: "或一鍵登入：",
      button: "登入",
    },
    team_invitation: {
      subject: "你受邀加入 {{ teamDisplayName }}",
      heading: "加入 {{ teamDisplayName }}",
      line: "你受邀加入 {{ projectDisplayName }} 上的團隊 {{ teamDisplayName }}。",
      button: "接受邀請",
    },
    sign_in_invitation: {
      subject: "你受邀登入 {{ projectDisplayName }}",
      heading: "登入 {{ projectDisplayName }}",
      line: "你受邀登入 {{ projectDisplayName }}。",
      button: "登入",
    },
  },
  nl: {
    orOpenLink: "Of open deze link:",
    ignore: "Als je deze e-mail niet verwachtte, kun je hem negeren.",
    email_verification: {
      subject: "Verifieer je e-mailadres bij {{ projectDisplayName }}",
      heading: "Verifieer je e-mailadres",
      line: "Bevestig dit e-mailadres voor je account bij {{ projectDisplayName }}.",
      button: "E-mailadres verifiëren",
    },
    password_reset: {
      subject: "Stel je wachtwoord bij {{ projectDisplayName }} opnieuw in",
      heading: "Wachtwoord opnieuw instellen",
      line: "Iemand heeft gevraagd het wachtwoord van je account bij {{ projectDisplayName }} opnieuw in te stellen.",
      button: "Wachtwoord opnieuw instellen",
    },
    magic_link: {
      subject: "Inloggen bij {{ projectDisplayName }}: je code is {{ otp }}",
      heading: "Inloggen bij {{ projectDisplayName }}",
      line: "Voer deze code in om in te loggen:",
      oneClick: "Of log in met één klik:",
      button: "Inloggen",
    },
    team_invitation: {
      subject: "Je bent uitgenodigd voor {{ teamDisplayName }}",
      heading: "Word lid van {{ teamDisplayName }}",
      line: "Je bent uitgenodigd om lid te worden van het team {{ teamDisplayName }} bij {{ projectDisplayName }}.",
      button: "Uitnodiging accepteren",
    },
    sign_in_invitation: {
      subject: "Je bent uitgenodigd om in te loggen bij {{ projectDisplayName }}",
      heading: "Inloggen bij {{ projectDisplayName }}",
      line: "Je bent uitgenodigd om in te loggen bij {{ projectDisplayName }}.",
      button: "Inloggen",
    },
  },
  pl: {
    orOpenLink: "Albo otwórz ten link:",
    ignore: "Jeśli nie spodziewałeś się tej wiadomości, możesz ją zignorować.",
    email_verification: {
      subject: "Zweryfikuj adres e-mail w {{ projectDisplayName }}",
      heading: "Zweryfikuj adres e-mail",
      line: "Potwierdź ten adres e-mail dla swojego konta w {{ projectDisplayName }}.",
      button: "Zweryfikuj e-mail",
    },
    password_reset: {
      subject: "Zresetuj hasło w {{ projectDisplayName }}",
      heading: "Zresetuj hasło",
      line: "Ktoś poprosił o zresetowanie hasła do Twojego konta w {{ projectDisplayName }}.",
      button: "Zresetuj hasło",
    },
    magic_link: {
      subject: "Logowanie do {{ projectDisplayName }}: Twój kod to {{ otp }}",
      heading: "Zaloguj się do {{ projectDisplayName }}",
      line: "Wpisz ten kod, aby się zalogować:",
      oneClick: "Albo zaloguj się jednym kliknięciem:",
      button: "Zaloguj się",
    },
    team_invitation: {
      subject: "Zaproszenie do zespołu {{ teamDisplayName }}",
      heading: "Dołącz do zespołu {{ teamDisplayName }}",
      line: "Otrzymujesz zaproszenie do zespołu {{ teamDisplayName }} w {{ projectDisplayName }}.",
      button: "Przyjmij zaproszenie",
    },
    sign_in_invitation: {
      subject: "Zaproszenie do zalogowania się w {{ projectDisplayName }}",
      heading: "Zaloguj się do {{ projectDisplayName }}",
      line: "Otrzymujesz zaproszenie do zalogowania się w {{ projectDisplayName }}.",
      button: "Zaloguj się",
    },
  },
  ar: {
    orOpenLink: "أو افتح هذا الرابط:",
    ignore: "إذا لم تكن تتوقع هذه الرسالة، فيمكنك تجاهلها.",
    email_verification: {
      subject: "أكّد بريدك الإلكتروني في {{ projectDisplayName }}",
      heading: "تأكيد عنوان بريدك الإلكتروني",
      line: "يُرجى تأكيد عنوان البريد الإلكتروني هذا لحسابك في {{ projectDisplayName }}.",
      button: "تأكيد البريد الإلكتروني",
    },
    password_reset: {
      subject: "إعادة تعيين كلمة المرور في {{ projectDisplayName }}",
      heading: "إعادة تعيين كلمة المرور",
      line: "طلب أحدهم إعادة تعيين كلمة مرور حسابك في {{ projectDisplayName }}.",
      button: "إعادة تعيين كلمة المرور",
    },
    magic_link: {
      subject: "تسجيل الدخول إلى {{ projectDisplayName }}: رمزك هو {{ otp }}",
      heading: "تسجيل الدخول إلى {{ projectDisplayName }}",
      line: "أدخل هذا الرمز لتسجيل الدخول:",
      oneClick: "أو سجّل الدخول بنقرة واحدة:",
      button: "تسجيل الدخول",
    },
    team_invitation: {
      subject: "تمت دعوتك للانضمام إلى {{ teamDisplayName }}",
      heading: "الانضمام إلى {{ teamDisplayName }}",
      line: "تمت دعوتك للانضمام إلى الفريق {{ teamDisplayName }} في {{ projectDisplayName }}.",
      button: "قبول الدعوة",
    },
    sign_in_invitation: {
      subject: "تمت دعوتك لتسجيل الدخول إلى {{ projectDisplayName }}",
      heading: "تسجيل الدخول إلى {{ projectDisplayName }}",
      line: "تمت دعوتك لتسجيل الدخول إلى {{ projectDisplayName }}.",
      button: "تسجيل الدخول",
    },
  },
};
