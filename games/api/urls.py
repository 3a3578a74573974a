"""REST URLs for sessions, deals, corrections, the ledger, purchases (and their voids) and the
dry-run replay."""
from django.urls import path

from . import views

SESSION = "clubs/<slug:club>/sessions/<int:session_id>/"

urlpatterns = [
    path("clubs/<slug:club>/sessions/", views.SessionListCreateView.as_view(), name="session-list"),
    path(SESSION, views.SessionDetailView.as_view(), name="session-detail"),
    path(f"{SESSION}deals/", views.DealListCreateView.as_view(), name="deal-list"),
    path(f"{SESSION}deals/<int:number>/", views.DealDetailView.as_view(), name="deal-detail"),
    path(f"{SESSION}deals/<int:number>/corrections", views.DealCorrectionView.as_view(), name="deal-corrections"),
    path(f"{SESSION}ledger", views.LedgerView.as_view(), name="session-ledger"),
    path(f"{SESSION}purchases/", views.PurchaseListCreateView.as_view(), name="purchase-list"),
    path(f"{SESSION}purchases/<int:purchase_id>/void", views.PurchaseVoidView.as_view(),
         name="purchase-void"),
    path(f"{SESSION}payments/", views.PaymentListCreateView.as_view(), name="payment-list"),
    path("replay", views.ReplayView.as_view(), name="replay"),
]
