import HTTPTypes
import Hummingbird
import NIOCore

/// The page's style sheet and script, served from the binary (no build step, no inline code: the CSP forbids it).
enum Assets {
    static func response(_ text: String, type: String) -> Response {
        Response(
            status: .ok, headers: [.contentType: type, .cacheControl: "public, max-age=300"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    static let style = """
        body { font: 14px/1.4 system-ui, sans-serif; margin: 0; color: #222; }
        nav { background: #234; padding: 8px 16px; } nav a { color: #fff; margin-right: 16px; }
        nav .keys { color: #9ab; float: right; } @media (max-width: 600px) { nav .keys { display: none; } } kbd { border: 1px solid #9ab; border-radius: 3px; padding: 0 3px; }
        main { padding: 12px 16px; } table { border-collapse: collapse; } td, th { padding: 3px 8px; text-align: left; }
        tbody tr:nth-child(odd) { background: #f4f6f8; } .num { text-align: right; font-variant-numeric: tabular-nums; }
        .filters a { margin-right: 12px; } .filters a.on { font-weight: bold; }
        .receipt { display: flex; gap: 20px; align-items: flex-start; }
        .image { flex: 0 0 55%; max-height: 90vh; overflow: auto; position: sticky; top: 0; }
        .frame { position: relative; width: 100%; } .frame img { width: 100%; display: block; }
        .box { position: absolute; border: 2px solid rgba(255, 140, 0, .35); pointer-events: none; }
        .box.active { border-color: #e00; background: rgba(255, 230, 0, .25); }
        .fields { flex: 1; min-width: 0; }
        table.fields input, table.fields select, #items input { width: 100%; min-width: 3em; }
        td.evidence { color: #555; font-family: ui-monospace, monospace; font-size: 12px; }
        tr.active { outline: 2px solid #e90; } .corrected { color: #070; font-weight: bold; }
        pre { background: #f4f6f8; padding: 8px; font-size: 12px; white-space: pre-wrap; }
        pre span.evidence { background: #fff3b0; } pre span.active { background: #ffb347; }
        .notice { background: #e6f6e6; padding: 6px; } .error { background: #fde8e8; padding: 6px; }
        .status { font-size: 13px; padding: 2px 6px; border-radius: 3px; background: #eee; }
        .status.needs_review { background: #ffe9b0; } .status.accepted { background: #d7f5d7; }
        .status.rejected { background: #f5d7d7; } button#accept { font-weight: bold; }
        svg.chart { display: block; max-width: 100%; height: auto; } svg.chart rect { fill: #4a7ab8; }
        svg.chart text { font-size: 12px; }
        form.rule { display: inline; }
        #checks li.passed { color: #070; } #checks li.failed { color: #a00; }
        input, select, img { max-width: 100%; box-sizing: border-box; }
        /* A phone: one column, tables as wide as the screen, the receipt image full width above the fields.
           Free text (merchants, file names, reasons, OCR) may break anywhere; dates, amounts and column heads
           stay whole. Left out: the queue's file names, the OCR line beside each field (focusing a field still
           outlines it on the image) and unit prices. The queue's rows are two lines each, no column heads: the
           receipt, merchant and total, then the reasons and date. Merchant and reasons get the width the others
           leave, so they break between words; only a word wider than that breaks. */
        @media (max-width: 700px) {
          main { padding: 8px; } nav { padding: 8px; } nav a { margin-right: 10px; display: inline-block; }
          body { overflow-wrap: break-word; } td, th { padding: 3px 4px; }
          td.text, h1 small, pre, #uploads .name { overflow-wrap: anywhere; }
          thead th, td.num, td.date { white-space: nowrap; }
          .receipt { flex-direction: column; } .image { flex: none; width: 100%; max-height: none; position: static; }
          .fields { width: 100%; } main table { width: 100%; }
          .wide-only { display: none; } form.rule input, form.rule select { max-width: 9em; }
          #queue thead { display: none; } #queue, #queue tbody { display: block; }
          #queue tr { display: grid; grid-template-columns: 2.5em minmax(0, 1fr) auto; column-gap: 4px; }
          #queue td.text { overflow-wrap: break-word; } #queue td.date { text-align: right; }
          #queue td.id { grid-area: 1 / 1 / 3 / 2; } #queue td.merchant { grid-area: 1 / 2; }
          #queue td.num { grid-area: 1 / 3; } #queue td.reasons { grid-area: 2 / 2; } #queue td.date { grid-area: 2 / 3; }
        }
        """

    static let script = """
        "use strict";
        document.addEventListener("DOMContentLoaded", () => {
          // Evidence boxes: fractions of the image, placed over it.
          for (const box of document.querySelectorAll(".box")) {
            box.style.left = (box.dataset.x * 100) + "%";
            box.style.top = (box.dataset.y * 100) + "%";
            box.style.width = (box.dataset.w * 100) + "%";
            box.style.height = (box.dataset.h * 100) + "%";
          }
          // Focusing a field outlines the lines it was read from, on the image and in the OCR text.
          const highlight = (field) => {
            for (const el of document.querySelectorAll(".active")) el.classList.remove("active");
            if (!field) return;
            for (const box of document.querySelectorAll('.box[data-field="' + field + '"]')) \
            box.classList.add("active");
            const row = document.querySelector('tr[data-field="' + field + '"]');
            if (!row) return;
            row.classList.add("active");
            for (const line of row.querySelectorAll(".line")) {
              const span = document.getElementById("line-" + line.dataset.line);
              if (span) span.classList.add("active");
            }
          };
          for (const row of document.querySelectorAll("tr[data-field]")) {
            row.addEventListener("focusin", () => highlight(row.dataset.field));
            row.addEventListener("mouseenter", () => highlight(row.dataset.field));
          }
          // Zoom: fit, or 1.5× per step.
          const frame = document.getElementById("frame");
          let zoom = 1;
          for (const button of document.querySelectorAll("[data-zoom]")) {
            button.addEventListener("click", () => {
              const step = Number(button.dataset.zoom);
              zoom = step === 0 ? 1 : Math.min(6, Math.max(1, zoom * (step > 0 ? 1.5 : 1 / 1.5)));
              if (frame) frame.style.width = (zoom * 100) + "%";
            });
          }
          for (const button of document.querySelectorAll("[data-confirm]")) {
            button.addEventListener("click", (event) => {
              if (!window.confirm(button.dataset.confirm)) event.preventDefault();
            });
          }
          // Keyboard: j next, a accept, t total, x reject; Escape leaves a field.
          document.addEventListener("keydown", (event) => {
            const target = event.target;
            const typing = target && ["INPUT", "SELECT", "TEXTAREA"].includes(target.tagName);
            if (typing) {
              if (event.key === "Escape") target.blur();
              // Enter in an item saves the items and stays; elsewhere it accepts (the form's first button).
              if (event.key === "Enter" && target.closest("#items")) {
                event.preventDefault();
                document.getElementById("save").click();
              }
              return;
            }
            if (event.ctrlKey || event.metaKey || event.altKey) return;
            const click = (id) => { const el = document.getElementById(id); if (el) { event.preventDefault(); \
            el.click(); } };
            if (event.key === "j" || event.key === "n") click("next");
            else if (event.key === "a") click("accept");
            else if (event.key === "x") click("reject");
            else if (event.key === "t") {
              const total = document.getElementById("field-total");
              if (total) { event.preventDefault(); total.focus(); total.select(); }
            }
          });
        });
        """
}
