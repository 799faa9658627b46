// The Scratch Wars card gallery (/games/scratch_wars/cards): replaces each server-rendered card
// (plain facts) with the drawn card, draws the legend, and filters heroes / weapon types.
import { pageData } from "/static/js/api.js";
import { heroCard, legend, loadCatalog, weaponCard } from "/static/js/scratch_wars_cards.js";

const data = pageData("sw-data");

async function main() {
  const cat = await loadCatalog(data.catalog);
  for (const node of document.querySelectorAll(".sw-fallback[data-code]")) {
    const code = node.dataset.code;
    const card = node.classList.contains("sw-hero") ? heroCard(cat.hero[code]) : weaponCard(cat.weapon[code]);
    card.id = node.id;
    node.replaceWith(card);
  }
  document.getElementById("sw-legend").replaceChildren(legend());
  if (window.matchMedia("(max-width: 719px)").matches) document.getElementById("sw-legend-box").open = false;

  const bar = document.getElementById("sw-filters");
  bar.hidden = false;
  bar.addEventListener("click", (event) => {
    const button = event.target.closest("button[data-filter]");
    if (!button) return;
    const f = button.dataset.filter;
    for (const b of bar.querySelectorAll("button")) {
      const on = b === button;
      b.setAttribute("aria-pressed", on ? "true" : "false");
      b.classList.toggle("btn-ghost", !on);
    }
    document.getElementById("heroes-section").hidden = !(f === "all" || f === "heroes");
    document.getElementById("weapons-section").hidden = f === "heroes";
    for (const group of document.querySelectorAll(".sw-weapon-group")) {
      group.hidden = !(f === "all" || f === group.dataset.type);
    }
  });
  document.body.dataset.swReady = "1";
}

main();
