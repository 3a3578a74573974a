"""Write-side services (HackSoft style): keyword-only, one transaction, session row locked.

``sessions``: session_create, purchase_record; ``deals``: deal_record, deal_correct;
``ledger``: ledger_post and the read-side balances/timeline/check; ``idempotency``: the
``Idempotency-Key`` decorator for views; ``engine``: the one door to ``games.rules``.
"""
