// Turn alerts on the match page (issue 16): when it becomes your turn (the snapshot gives your
// seat legal actions in an active match),
//
//  - the tab's title reads "(●) Your turn · <title>" and the favicon gets a red mark, both put
//    back when it is not your turn any more;
//  - a short sound plays, if the player switched sound on (#turn-sound; stored in localStorage
//    under SOUND_KEY, off by default);
//  - a browser notification shows while the tab is hidden, if the player switched alerts on with
//    the bell (#turn-notify; permission is asked only on that click, the choice is stored under
//    NOTIFY_KEY).
//
// Nothing is sent to the server.

import { say } from "/static/js/messages.js";

export const SOUND_KEY = "arena.turnSound";
export const NOTIFY_KEY = "arena.turnNotify";
const MARKED_ICON = "/static/favicon-turn.svg";

/** Whether `snapshot` asks the viewer's seat to act now. */
export function isMyTurn(snapshot) {
  return !!snapshot && snapshot.status === "active" && snapshot.seat !== null && snapshot.seat !== undefined
    && (snapshot.legal || []).length > 0;
}

function stored(key) {
  try {
    return window.localStorage.getItem(key) === "on";
  } catch (err) {
    return false;
  }
}

function store(key, on) {
  try {
    window.localStorage.setItem(key, on ? "on" : "off");
  } catch (err) {
    // private mode: the setting lasts as long as the page
  }
}

export class TurnAlerts {
  /**
   * @param {MatchClient} client
   * @param {object} elements {sound, notify}: the two toggle buttons (either may be missing)
   * @param {string} gameTitle  the game's name, for the notification
   */
  constructor(client, { sound, notify }, gameTitle = "") {
    this.client = client;
    this.ui = { sound, notify };
    this.gameTitle = gameTitle;
    this.baseTitle = document.title;
    this.icon = document.querySelector('link[rel="icon"]');
    this.baseIcon = this.icon ? this.icon.getAttribute("href") : null;
    this.mine = false;
    this.sound = stored(SOUND_KEY);
    this.notify = stored(NOTIFY_KEY);
    this.audio = null;
    client.on("snapshot", (snap) => this.update(snap));
    this.setUp();
  }

  setUp() {
    const { sound, notify } = this.ui;
    const player = !this.client.isSpectator;
    if (sound) {
      sound.hidden = !player;
      sound.addEventListener("click", () => {
        this.sound = !this.sound;
        store(SOUND_KEY, this.sound);
        if (this.sound) this.beep(); // a user gesture: the audio may start now, and the player hears what it is
        this.drawButtons();
      });
    }
    if (notify) {
      notify.hidden = !player || !("Notification" in window);
      notify.addEventListener("click", async () => {
        if (!this.notify && Notification.permission === "default") {
          try {
            await Notification.requestPermission();
          } catch (err) {
            // an old browser without the promise form: the permission stays as it is
          }
        }
        this.notify = !this.notify && Notification.permission === "granted";
        store(NOTIFY_KEY, this.notify);
        this.drawButtons();
      });
    }
    this.drawButtons();
  }

  drawButtons() {
    const { sound, notify } = this.ui;
    if (sound) {
      sound.textContent = say(this.sound ? "turn.sound.on" : "turn.sound.off");
      sound.setAttribute("aria-pressed", String(this.sound));
    }
    if (notify && "Notification" in window) {
      const denied = Notification.permission === "denied";
      const on = this.notify && Notification.permission === "granted";
      notify.textContent = `🔔 ${say(denied ? "turn.notify.denied" : on ? "turn.notify.on" : "turn.notify.off")}`;
      notify.setAttribute("aria-pressed", String(on));
      notify.disabled = denied;
    }
  }

  update(snapshot) {
    const mine = isMyTurn(snapshot);
    // a player joining after the page loaded: show the toggles
    if (!this.client.isSpectator) {
      if (this.ui.sound) this.ui.sound.hidden = false;
      if (this.ui.notify) this.ui.notify.hidden = !("Notification" in window);
    }
    if (mine === this.mine) return;
    this.mine = mine;
    document.title = mine ? say("turn.title", { title: this.baseTitle }) : this.baseTitle;
    if (this.icon && this.baseIcon) this.icon.setAttribute("href", mine ? MARKED_ICON : this.baseIcon);
    document.body.dataset.myTurn = String(mine);
    if (!mine) return;
    if (this.sound) this.beep();
    if (this.notify && document.hidden && "Notification" in window && Notification.permission === "granted") {
      try {
        const n = new Notification(say("turn.notification.title"), {
          body: say("turn.notification.body", { game: this.gameTitle, match: this.client.matchId }),
          tag: `arena-turn-${this.client.matchId}`,
        });
        n.onclick = () => {
          window.focus();
          n.close();
        };
      } catch (err) {
        // notifications from a page are refused on some phones (service workers only)
      }
    }
  }

  /** Two short tones (Web Audio; nothing to download). */
  beep() {
    try {
      const Ctx = window.AudioContext || window.webkitAudioContext;
      if (!Ctx) return;
      this.audio ||= new Ctx();
      const ctx = this.audio;
      if (ctx.state === "suspended") ctx.resume().catch(() => {});
      const now = ctx.currentTime;
      for (const [at, freq] of [[0, 660], [0.16, 880]]) {
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.frequency.value = freq;
        gain.gain.setValueAtTime(0.0001, now + at);
        gain.gain.exponentialRampToValueAtTime(0.2, now + at + 0.02);
        gain.gain.exponentialRampToValueAtTime(0.0001, now + at + 0.14);
        osc.connect(gain).connect(ctx.destination);
        osc.start(now + at);
        osc.stop(now + at + 0.15);
      }
      this.beeps = (this.beeps || 0) + 1; // for the browser tests
    } catch (err) {
      // no audio here: the title and the icon still say it
    }
  }
}
