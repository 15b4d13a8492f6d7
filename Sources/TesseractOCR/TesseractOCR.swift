// The OCR engine lands with the OCR issue.
