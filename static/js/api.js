// Small helpers shared by the pages: JSON calls to /api with clear error messages.

/** An error answered by the API: `code` (stable, e.g. "name_taken"), `message` (for people), `status`. */
export class ApiError extends Error {
  constructor(status, code, message, body) {
    super(message);
    this.status = status;
    this.code = code;
    this.body = body;
  }
}

/**
 * Call the JSON API. Resolves with the parsed body (null for 204), rejects with ApiError.
 * @param {string} method
 * @param {string} path
 * @param {any} [body]
 */
export async function api(method, path, body) {
  const init = { method, headers: { Accept: "application/json" }, credentials: "same-origin" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw new ApiError(0, "network", "The server cannot be reached. Check your connection and try again.");
  }
  if (res.status === 204) return null;
  let data = null;
  try {
    data = await res.json();
  } catch (err) {
    data = null;
  }
  if (!res.ok) {
    const e = (data && data.error) || {};
    throw new ApiError(res.status, e.code || "error", e.message || `The server answered ${res.status}.`, data);
  }
  return data;
}

/** Create an element: el("div", {class: "x", text: "hi"}, child, ...). */
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else if (key === "dataset") Object.assign(node.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, "");
    else node.setAttribute(key, String(value));
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** Show a message in an error box (hidden when `message` is empty). */
export function showError(box, message) {
  if (!box) return;
  box.textContent = message || "";
  box.hidden = !message;
}

/** Data embedded in the page as <script type="application/json" id=...>. */
export function pageData(id) {
  const node = document.getElementById(id);
  return node ? JSON.parse(node.textContent) : {};
}

/** "untimed" / "30 s" / "2 min" */
export function formatTurn(seconds) {
  if (!seconds) return "untimed";
  if (seconds % 60 === 0) return `${seconds / 60} min`;
  return `${seconds} s`;
}
