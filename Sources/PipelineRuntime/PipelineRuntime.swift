// The worker runtime lands with the queue issue.
