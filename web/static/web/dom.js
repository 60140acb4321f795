// A tiny element builder: h("button", {class: "x", onclick}, "text", child...).
// Children may be strings, nodes, arrays or null/false (skipped).

const SVG_NS = "http://www.w3.org/2000/svg";

function setProps(el, props, svg) {
  for (const [key, value] of Object.entries(props || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") el.setAttribute("class", value);
    else if (key === "dataset") Object.assign(el.dataset, value);
    else if (key.startsWith("on") && typeof value === "function") el.addEventListener(key.slice(2), value);
    else if (!svg && (key === "value" || key === "checked" || key === "selected")) el[key] = value;
    // Through the CSS object model, which the Content-Security-Policy allows; a style
    // attribute set as markup is refused (docs/operations/security.md).
    else if (key === "style") el.style.cssText = String(value);
    else el.setAttribute(key, value === true ? "" : String(value));
  }
}

export function append(parent, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    parent.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return parent;
}

export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  setProps(el, props, false);
  return append(el, children);
}

export function s(tag, props, ...children) {
  const el = document.createElementNS(SVG_NS, tag);
  setProps(el, props, true);
  return append(el, children);
}

export function replace(parent, ...children) {
  parent.replaceChildren();
  return append(parent, children);
}

// Whoever had the keyboard focus keeps it across a re-render, found again by its key.
export function focusKey(el) {
  return el?.closest?.("[data-focus]")?.dataset.focus ?? null;
}

export function restoreFocus(root, key) {
  if (!key) return;
  const el = root.querySelector(`[data-focus="${CSS.escape(key)}"]`);
  if (el && !el.disabled) el.focus({ preventScroll: true });
}
