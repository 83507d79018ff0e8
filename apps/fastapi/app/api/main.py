"""The API's routers, one per resource at its prefix, and the meta routes at the root (the full-stack template's
api/main.py). main.py includes `api_router` in the app."""

from fastapi import APIRouter

from .routes import auth, meta, orders, products, users

api_router = APIRouter()
api_router.include_router(meta.router)
api_router.include_router(users.router)
api_router.include_router(products.router)
api_router.include_router(orders.router)
api_router.include_router(auth.router)
