// Every visible text node's contrast with what it sits on (the WCAG 2 ratio from the computed
// colours, the background found by walking up, opacity blended in): the texts under 4.5:1.
// Read by tests/browser/test_miniapp_offline.py and evaluated in the page.
(() => {
  const parse = (s) => { const m = s.match(/[\d.]+/g).map(Number); return [m[0], m[1], m[2], m.length > 3 ? m[3] : 1]; };
  const lin = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
  const lum = (c) => 0.2126 * lin(c[0]) + 0.7152 * lin(c[1]) + 0.0722 * lin(c[2]);
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const bad = [];
  let checked = 0;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el.getClientRects().length || el.closest("button:disabled")) continue;
    checked += 1;
    const layers = [];
    let opacity = 1;
    for (let up = el; up; up = up.parentElement) {
      const style = getComputedStyle(up);
      opacity *= Number(style.opacity);
      const bg = parse(style.backgroundColor);
      if (bg[3] > 0) layers.push(bg);
      if (bg[3] >= 1) break;
    }
    let bg = [255, 255, 255, 1];
    for (const layer of layers.reverse()) bg = over(layer, bg);
    const fg = over(parse(getComputedStyle(el).color), bg);
    const seen = over([fg[0], fg[1], fg[2], opacity], bg);
    const [a, b] = [lum(seen), lum(bg)].sort((x, y) => y - x);
    const ratio = (a + 0.05) / (b + 0.05);
    if (ratio < 4.5) bad.push(`${node.textContent.trim().slice(0, 30)}: ${ratio.toFixed(2)}`);
  }
  return { bad, checked };
})();
