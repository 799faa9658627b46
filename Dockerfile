FROM python:3.11-slim
WORKDIR /srv
COPY pyproject.toml README.md ./
COPY app ./app
RUN pip install --no-cache-dir .
COPY alembic.ini ./
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates
COPY translations ./translations
ENV ENV=production
EXPOSE 8000
RUN useradd --system --no-create-home arena
USER arena
# migrations run in docker-compose's one-shot `migrate` service (alembic upgrade head).
# uvicorn believes no X-Forwarded-* header by itself (--no-proxy-headers): the app does, and only
# from the peers listed in TRUSTED_PROXIES (the reverse proxy; empty by default: nobody).
CMD ["uvicorn", "--factory", "app.main:create_app", "--host", "0.0.0.0", "--port", "8000", "--no-proxy-headers", "--ws-max-size", "65536"]
