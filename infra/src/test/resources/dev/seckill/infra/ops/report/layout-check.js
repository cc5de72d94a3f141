// Injected by HeadlessChromium.measure: after the page has loaded, what a reader at this viewport sees, measured by
// the browser itself, written as JSON into a pre element with the id layout-check (read back through --dump-dom).
(function () {
  var errors = [];
  window.addEventListener('error', function (e) { errors.push(String(e.message)); });
  function box(r) { return {x0: r.left, y0: r.top, x1: r.right, y1: r.bottom}; }
  function overlap(a, b) {
    var w = Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0), h = Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0);
    return w > 0 && h > 0 ? w * h : 0;
  }
  function caption(svg) {
    var figure = svg.closest('figure'), c = figure && figure.querySelector('figcaption');
    return c ? c.textContent : svg.getAttribute('aria-label') || '';
  }
  function chart(svg) {
    var sb = box(svg.getBoundingClientRect()), texts = [], overlaps = [], series = [], bars = [];
    svg.querySelectorAll('text').forEach(function (t) {
      var b = box(t.getBoundingClientRect());
      b.text = t.textContent;
      texts.push(b);
    });
    for (var i = 0; i < texts.length; i++)
      for (var j = i + 1; j < texts.length; j++) {
        var a = overlap(texts[i], texts[j]);
        if (a > 1) overlaps.push(texts[i].text + ' / ' + texts[j].text + ' (' + a.toFixed(1) + ' px²)');
      }
    var outside = texts.filter(function (t) {
      return t.x0 < sb.x0 - 0.5 || t.x1 > sb.x1 + 0.5 || t.y0 < sb.y0 - 0.5 || t.y1 > sb.y1 + 0.5;
    }).map(function (t) { return t.text; });
    svg.querySelectorAll('polyline, path').forEach(function (p) {
      var r = p.getBoundingClientRect(), n;
      if (p.tagName === 'polyline') n = p.points.numberOfItems;
      else n = Math.floor(((p.getAttribute('d') || '').match(/-?\d*\.?\d+(e-?\d+)?/gi) || []).length / 2);
      series.push({kind: p.tagName, points: n, width: r.width, height: r.height});
    });
    svg.querySelectorAll('rect').forEach(function (rect) {
      var title = rect.querySelector('title');
      if (!title) return; // a legend's swatch, not a bar
      var r = rect.getBoundingClientRect(), t = title.textContent;
      bars.push({title: t, value: parseFloat(t.substring(t.lastIndexOf(':') + 1)), width: r.width, height: r.height});
    });
    return {caption: caption(svg), box: sb, dataPoints: +(svg.dataset.points || -1), texts: texts,
      overlaps: overlaps, outside: outside, series: series, bars: bars};
  }
  function measure() {
    var out = {
      viewportWidth: window.innerWidth, viewportHeight: window.innerHeight,
      scrollWidth: document.documentElement.scrollWidth, scrollHeight: document.documentElement.scrollHeight,
      goods: [], headings: [], charts: [], errors: errors
    };
    document.querySelectorAll('[id^="goods-"]').forEach(function (e) { out.goods.push(e.id); });
    document.querySelectorAll('h1, h2').forEach(function (h) { out.headings.push(h.textContent); });
    document.querySelectorAll('svg').forEach(function (svg) { out.charts.push(chart(svg)); });
    // what passes the right edge of the page's column, or scrolls sideways inside it (a pre, a table in a div): the
    // outermost such element only, not each of its cells; an SVG's own parts are the charts' checks above
    var column = document.body.getBoundingClientRect();
    var right = column.right - parseFloat(getComputedStyle(document.body).paddingRight);
    var reported = [];
    out.wide = [];
    document.querySelectorAll('body *').forEach(function (e) {
      if (e instanceof SVGElement && !(e instanceof SVGSVGElement)) return;
      if (reported.some(function (r) { return r.contains(e); })) return;
      var r = e.getBoundingClientRect(), what = e.tagName.toLowerCase() + ' "' + e.textContent.trim().substring(0, 40) + '"';
      if (r.right > right + 0.5) out.wide.push(what + ' ends at ' + r.right.toFixed(0) + ' px, the column at ' + right.toFixed(0));
      else if (e.scrollWidth > e.clientWidth + 1 && getComputedStyle(e).overflowX !== 'visible')
        out.wide.push(what + ' scrolls sideways: ' + e.scrollWidth + ' px in ' + e.clientWidth);
      else return;
      reported.push(e);
    });
    var pre = document.createElement('pre');
    pre.id = 'layout-check';
    pre.textContent = JSON.stringify(out);
    document.body.appendChild(pre);
  }
  if (document.readyState === 'complete') measure(); else window.addEventListener('load', measure);
})();
