/// The upload page of `pipeline serve`: pick or photograph receipts on a phone, watch each upload and its processing.
/// The file input has no `capture`: a phone offers its photo library, its files and the camera.
enum UploadPage {
    static func page(csrf: String, maxBytes: Int, _ navigation: Pages.Navigation) -> HTML {
        Pages.layout(
            "Upload",
            """
            <link rel="stylesheet" href="/upload.css"><h1>Upload receipts</h1>
            <form id="upload-form" class="upload" action="/upload" method="post" enctype="multipart/form-data">
            <label for="files" class="pick">Choose photos, scans or PDFs</label>
            <input type="file" id="files" name="files" accept="image/*,application/pdf" multiple \
            data-csrf="\(csrf)">
            </form>
            <p class="hint">Each file up to \(maxBytes / (1024 * 1024)) MB. An image uploaded before is not stored \
            twice. Receipts that need a look appear in the <a href="/queue">review queue</a>.</p>
            <ul id="uploads"></ul>
            <script src="/upload.js" defer></script>
            """, navigation)
    }

    /// Big touch targets and one line per upload, for a phone's screen.
    static let style = """
        form.upload input[type=file] { font-size: 1.2em; padding: 12px 0; max-width: 100%; }
        form.upload label.pick { display: block; font-weight: bold; margin-bottom: 6px; }
        #uploads { list-style: none; padding: 0; } #uploads li { padding: 6px 0; border-bottom: 1px solid #ddd; }
        #uploads progress { width: 8em; vertical-align: middle; } #uploads .name { font-weight: bold; }
        #uploads li[data-result=rejected] .result, #uploads li[data-stage=failed] .stage { color: #a00; }
        #uploads li[data-stage=done] .stage { color: #070; }
        """

    /// Uploads each chosen file with its own request (progress bar, then the result), then polls until every
    /// stored receipt is processed, linking each to its review page.
    static let script = """
        "use strict";
        document.addEventListener("DOMContentLoaded", () => {
          const input = document.getElementById("files");
          const list = document.getElementById("uploads");
          const rows = new Map();
          const describe = (progress) => {
            if (progress.stage === "done") return "done: " + (progress.status || "").replace("_", " ");
            if (progress.stage === "failed") return "failed: open the receipt for why, to retry or delete it";
            return progress.stage;
          };
          const poll = async () => {
            const ids = [...rows.keys()].filter((id) => !["done", "failed"].includes(rows.get(id).dataset.stage));
            if (ids.length === 0) return;
            try {
              const answer = await fetch("/upload/progress?ids=" + ids.join(","), { credentials: "same-origin" });
              for (const progress of await answer.json()) {
                const row = rows.get(progress.receiptID);
                if (!row) continue;
                row.dataset.stage = progress.stage;
                row.querySelector(".stage").textContent = describe(progress);
              }
            } catch (error) {
              // The next poll tries again.
            }
            setTimeout(poll, 1000);
          };
          const upload = (file) => new Promise((resolve) => {
            const row = document.createElement("li");
            const name = document.createElement("span");
            name.className = "name";
            name.textContent = file.name;
            const bar = document.createElement("progress");
            bar.max = 1;
            bar.value = 0;
            const result = document.createElement("span");
            result.className = "result";
            result.textContent = "uploading";
            const stage = document.createElement("span");
            stage.className = "stage";
            row.append(name, " ", bar, " ", result, " ", stage);
            list.append(row);
            const request = new XMLHttpRequest();
            request.open("POST", "/upload");
            request.setRequestHeader("X-CSRF-Token", input.dataset.csrf);
            request.setRequestHeader("X-File-Name", encodeURIComponent(file.name));
            request.upload.onprogress = (event) => {
              if (event.lengthComputable) bar.value = event.loaded / event.total;
            };
            request.onload = () => {
              bar.value = 1;
              let answer;
              try {
                answer = JSON.parse(request.responseText);
              } catch (error) {
                answer = { result: "failed", message: request.responseText };
              }
              row.dataset.result = answer.result;
              result.textContent = answer.result + (answer.message ? ": " + answer.message : "");
              if (answer.receiptID) {
                const link = document.createElement("a");
                link.href = "/receipts/" + answer.receiptID;
                link.textContent = "receipt " + answer.receiptID;
                row.insertBefore(link, stage);
                row.insertBefore(document.createTextNode(" "), stage);
                rows.set(answer.receiptID, row);
              }
              resolve();
            };
            request.onerror = () => {
              row.dataset.result = "failed";
              result.textContent = "failed: the connection was lost; upload it again";
              resolve();
            };
            request.send(file);
          });
          input.addEventListener("change", async () => {
            for (const file of [...input.files]) await upload(file);
            input.value = "";
            poll();
          });
        });
        """
}
