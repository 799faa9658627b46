// Runs on every page: the header's "Log out" button.
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
