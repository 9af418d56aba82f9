// Line ranges in a file view (#L5-L10): marks the rows and scrolls to the first; a shift-click on a
// line number extends the range. Only an enhancement: without it #L5 still works through :target.
(() => {
  const rows = (a, b) => {
    for (const tr of document.querySelectorAll("table.code tr.hl")) tr.classList.remove("hl");
    const [from, to] = a <= b ? [a, b] : [b, a];
    for (let n = from; n <= to; n++) document.getElementById(`L${n}`)?.classList.add("hl");
    return document.getElementById(`L${from}`);
  };
  const parse = () => {
    const m = /^#L(\d+)(?:-L(\d+))?$/.exec(location.hash);
    return m ? [Number(m[1]), Number(m[2] ?? m[1])] : undefined;
  };
  const show = (scroll) => {
    const range = parse();
    const first = range && rows(range[0], range[1]);
    if (first && scroll) first.scrollIntoView({ block: "center" });
  };
  document.addEventListener("click", (event) => {
    const link = event.target instanceof Element ? event.target.closest("table.code td.ln a") : null;
    const range = parse();
    if (!link || !event.shiftKey || !range) return;
    event.preventDefault();
    const n = Number(link.getAttribute("href").slice(2));
    history.replaceState(null, "", `#L${Math.min(range[0], n)}-L${Math.max(range[0], n)}`);
    show(false);
  });
  addEventListener("hashchange", () => show(true));
  show(true);
})();
