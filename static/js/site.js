// Runs on every page: the header's "Log out" button and language picker.
import { api } from "/static/js/api.js";

const logout = document.getElementById("logout-button");
if (logout) {
  logout.addEventListener("click", async () => {
    logout.disabled = true;
    try {
      await api("POST", "/api/auth/logout");
    } catch (err) {
      // logged out or not, go home
    }
    window.location.assign("/");
  });
}

// The language picker: store the choice (the user's, and the arena_lang cookie), then reload the
// page without a ?lang= (which would win over the choice; app/i18n/locales.py).
const picker = document.getElementById("language-picker");
if (picker) {
  picker.addEventListener("change", async () => {
    picker.disabled = true;
    try {
      await api("POST", "/api/users/me/language", { language: picker.value });
    } catch (err) {
      // the cookie could not be set: the ?lang= below still shows the page in that language
      const url = new URL(window.location.href);
      url.searchParams.set("lang", picker.value);
      window.location.assign(url.toString());
      return;
    }
    const url = new URL(window.location.href);
    if (url.searchParams.has("lang")) {
      url.searchParams.delete("lang");
      window.location.assign(url.toString());
    } else {
      window.location.reload();
    }
  });
}
