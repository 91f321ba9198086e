// The words of the new-device notice (trust/new-device.ts) in every supported locale, like template-texts.ts.
// `{{ name }}` placeholders stay as they are in every language: they are filled when the e-mail is rendered.
import type { SupportedLocale } from "@gatehouse/contract/locales";

export type NewDeviceTexts = {
  subject: string;
  line: string;
  time: string;
  browser: string;
  os: string;
  ip: string;
  advice: string;
};

export const NEW_DEVICE_TEXTS: Record<SupportedLocale, NewDeviceTexts> = {
  en: {
    subject: "New sign-in to {{ projectDisplayName }}",
    line: "Your account was just signed in to from a device it has not used before:",
    time: "Time",
    browser: "Browser",
    os: "Operating system",
    ip: "IP address",
    advice:
      "If this was you, you need not do anything. If not, change your password and sign out your other sessions.",
  },
  de: {
    subject: "Neue Anmeldung bei {{ projectDisplayName }}",
    line: "Dein Konto wurde gerade von einem Gerät angemeldet, das es bisher nicht verwendet hat:",
    time: "Zeit",
    browser: "Browser",
    os: "Betriebssystem",
    ip: "IP-Adresse",
    advice:
      "Wenn du das warst, musst du nichts tun. Wenn nicht, ändere dein Passwort und melde deine anderen Sitzungen ab.",
  },
  fr: {
    subject: "Nouvelle connexion à {{ projectDisplayName }}",
    line: "Votre compte vient d'être connecté depuis un appareil qu'il n'avait jamais utilisé :",
    time: "Heure",
    browser: "Navigateur",
    os: "Système d'exploitation",
    ip: "Adresse IP",
    advice:
      "Si c'était vous, vous n'avez rien à faire. Sinon, changez votre mot de passe et déconnectez vos autres sessions.",
  },
  es: {
    subject: "Nuevo inicio de sesión en {{ projectDisplayName }}",
    line: "Se acaba de iniciar sesión en tu cuenta desde un dispositivo que no había usado antes:",
    time: "Hora",
    browser: "Navegador",
    os: "Sistema operativo",
    ip: "Dirección IP",
    advice:
      "Si fuiste tú, no tienes que hacer nada. Si no, cambia tu contraseña y cierra tus otras sesiones.",
  },
  "pt-BR": {
    subject: "Novo acesso a {{ projectDisplayName }}",
    line: "Sua conta acabou de ser acessada de um dispositivo que ela não tinha usado antes:",
    time: "Horário",
    browser: "Navegador",
    os: "Sistema operacional",
    ip: "Endereço IP",
    advice: "Se foi você, não precisa fazer nada. Se não, altere sua senha e encerre suas outras sessões.",
  },
  it: {
    subject: "Nuovo accesso a {{ projectDisplayName }}",
    line: "È appena stato effettuato l'accesso al tuo account da un dispositivo mai usato prima:",
    time: "Ora",
    browser: "Browser",
    os: "Sistema operativo",
    ip: "Indirizzo IP",
    advice: "Se sei stato tu, non devi fare nulla. Altrimenti cambia la password e chiudi le altre sessioni.",
  },
  ja: {
    subject: "{{ projectDisplayName }} への新しいサインイン",
    line: "これまで使われたことのないデバイスからあなたのアカウントにサインインがありました:",
    time: "日時",
    browser: "ブラウザ",
    os: "OS",
    ip: "IP アドレス",
    advice:
      "ご本人であれば対応は不要です。心当たりがない場合は、パスワードを変更し、他のセッションからサインアウトしてください。",
  },
  ko: {
    subject: "{{ projectDisplayName }} 새 로그인",
    line: "이전에 사용한 적 없는 기기에서 계정에 로그인했습니다:",
    time: "시간",
    browser: "브라우저",
    os: "운영체제",
    ip: "IP 주소",
    advice:
      "본인이라면 아무것도 하지 않아도 됩니다. 아니라면 비밀번호를 변경하고 다른 세션에서 로그아웃하세요.",
  },
  "zh-Hans": {
    subject: "{{ projectDisplayName }} 的新登录",
    line: "你的账户刚刚在一台以前未使用过的设备上登录:",
    time: "时间",
    browser: "浏览器",
    os: "操作系统",
    ip: "IP 地址",
    advice: "如果是你本人,无需任何操作。如果不是,请更改密码并退出其他会话。",
  },
  "zh-Hant": {
    subject: "{{ projectDisplayName }} 的新登入",
    line: "你的帳戶剛剛在一台以前未使用過的裝置上登入:",
    time: "時間",
    browser: "瀏覽器",
    os: "作業系統",
    ip: "IP 位址",
    advice: "如果是你本人,無需任何操作。如果不是,請變更密碼並登出其他工作階段。",
  },
  nl: {
    subject: "Nieuwe aanmelding bij {{ projectDisplayName }}",
    line: "Er is zojuist op je account aangemeld vanaf een apparaat dat het nog niet eerder gebruikte:",
    time: "Tijd",
    browser: "Browser",
    os: "Besturingssysteem",
    ip: "IP-adres",
    advice:
      "Was jij dit, dan hoef je niets te doen. Zo niet, wijzig dan je wachtwoord en meld je andere sessies af.",
  },
  pl: {
    subject: "Nowe logowanie do {{ projectDisplayName }}",
    line: "Na Twoje konto właśnie zalogowano się z urządzenia, którego wcześniej nie używano:",
    time: "Czas",
    browser: "Przeglądarka",
    os: "System operacyjny",
    ip: "Adres IP",
    advice: "Jeśli to Ty, nie musisz nic robić. Jeśli nie, zmień hasło i wyloguj pozostałe sesje.",
  },
  ar: {
    subject: "تسجيل دخول جديد إلى {{ projectDisplayName }}",
    line: "تم للتو تسجيل الدخول إلى حسابك من جهاز لم يُستخدم من قبل:",
    time: "الوقت",
    browser: "المتصفح",
    os: "نظام التشغيل",
    ip: "عنوان IP",
    advice: "إذا كنت أنت، فلا داعي لفعل أي شيء. وإلا فغيّر كلمة المرور وسجّل الخروج من جلساتك الأخرى.",
  },
};
