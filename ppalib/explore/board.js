// The explorer's board (ppalib/explore/widget.py, BoardView): the SVG the kernel draws, shown as is; a click on a
// cell's invisible target (an element whose id is "target-<cell>") is sent to the kernel.  One click per drawn
// picture: after a click the board waits for the kernel's next picture (or its "ready"), and while the kernel says
// it is busy (an agent thinking) clicks are refused here, so none is queued for the next position.
function render({ model, el }) {
  el.classList.add("ppalib-board");
  let pending = false;
  const mark = () => {
    const busy = model.get("busy") || pending;
    el.classList.toggle("ppalib-busy", busy);
    el.dataset.busy = String(busy);
    el.dataset.drawn = String(model.get("drawn"));
  };
  const draw = () => {
    el.innerHTML = model.get("svg");
    const svg = el.querySelector("svg");
    if (svg) {
      // the kernel's picture has a viewBox: setting only its height keeps its proportions, at any zoom sharp
      svg.removeAttribute("width");
      svg.setAttribute("height", `${model.get("height")}px`);
      svg.style.width = "auto";
      svg.style.maxWidth = "100%";
    }
    pending = false;
    mark();
  };
  el.addEventListener("click", (event) => {
    const target = event.target.closest('[id^="target-"]');
    if (!target || pending || model.get("busy")) {
      return;
    }
    pending = true;
    mark();
    model.send({ event: "click", cell: Number(target.id.slice("target-".length)), drawn: model.get("drawn") });
  });
  model.on("change:drawn", draw);
  model.on("change:busy", mark);
  model.on("msg:custom", (message) => {
    if (message && message.event === "ready") {
      pending = false;
      mark();
    }
  });
  draw();
}

export default { render };
