// Telegram's theme, made readable: every text of the page meets WCAG AA (4.5:1) on the colour
// it sits on, in any theme a client passes. Telegram's hint colour is 2.5:1 on its light
// panels, its button text 4.4:1 on its blue: the colours the page writes with are the theme's,
// moved toward black or white only as far as it takes (tests/browser/test_miniapp_offline.py
// measures every text node in the light and the dark theme).
"use strict";

(function (root) {
  const AA = 4.6; // a little over 4.5: rounding in the browser's colours

  function rgb(hex) {
    const text = String(hex || "").trim().replace("#", "");
    const full = text.length === 3 ? text.split("").map((c) => c + c).join("") : text.slice(0, 6);
    const n = parseInt(full, 16);
    return Number.isNaN(n) || full.length !== 6 ? null : [(n >> 16) & 255, (n >> 8) & 255, n & 255];
  }

  function luminance(color) {
    const [r, g, b] = color.map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  }

  function ratio(a, b) {
    const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  }

  const mix = (a, b, t) => a.map((v, i) => Math.round(v + (b[i] - v) * t));
  const hex = (color) => `#${color.map((v) => v.toString(16).padStart(2, "0")).join("")}`;
  const BLACK = [0, 0, 0];
  const WHITE = [255, 255, 255];

  // `fg` moved toward black or white (whichever `bg` sets off better) until it reads on `bg`.
  function readable(fg, bg) {
    const toward = ratio(WHITE, bg) > ratio(BLACK, bg) ? WHITE : BLACK;
    for (let t = 0; t <= 1.0001; t += 0.05) {
      const color = mix(fg, toward, Math.min(t, 1));
      if (ratio(color, bg) >= AA) return color;
    }
    return toward;
  }

  // A filled control (the primary button): its background darkened or lightened until its
  // text (kept as the theme gives it, when it can be) reads on it.
  function filled(fg, bg) {
    const away = luminance(fg) > 0.5 ? BLACK : WHITE;
    for (let t = 0; t <= 1.0001; t += 0.05) {
      const color = mix(bg, away, Math.min(t, 1));
      if (ratio(fg, color) >= AA) return color;
    }
    return away;
  }

  function apply(theme) {
    const style = root.document.documentElement.style;
    for (const [name, value] of Object.entries(theme || {})) style.setProperty(`--tg-theme-${name.replace(/_/g, "-")}`, value);
    const pick = (name, fallback) => rgb(theme && theme[name]) || rgb(fallback);
    const bg = pick("bg_color", "#ffffff");
    const panel = pick("secondary_bg_color", "#efeff3");
    const text = pick("text_color", "#000000");
    const hint = pick("hint_color", "#888888");
    const buttonText = pick("button_text_color", "#ffffff");
    const red = rgb("#d64545");
    const colours = {
      "--text-on-bg": readable(text, bg),
      "--text-on-panel": readable(text, panel),
      "--hint-on-bg": readable(hint, bg),
      "--hint-on-panel": readable(hint, panel),
      "--red-on-bg": readable(red, bg),
      "--button-fill": filled(buttonText, pick("button_color", "#2481cc")),
      "--button-label": buttonText,
    };
    for (const [name, color] of Object.entries(colours)) style.setProperty(name, hex(color));
    root.document.documentElement.classList.toggle("dark", luminance(bg) < 0.2);
  }

  root.MafiaTheme = { apply, ratio, rgb, readable };
})(window);
