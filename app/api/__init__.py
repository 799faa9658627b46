"""HTTP JSON API under ``/api`` (thin routes; the domain packages hold the logic)."""
