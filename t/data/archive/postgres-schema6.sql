-- A shared archive of schema 6 as dl wrote it (commit 1f18f7d, the last
-- before schema 7): t/data/archive/README.md says how it was made.
--
-- PostgreSQL database dump
--


-- Dumped from database version 15.18 (Debian 15.18-0+deb12u1)
-- Dumped by pg_dump version 15.18 (Debian 15.18-0+deb12u1)

SET statement_timeout = 0;
SET lock_timeout = 0;
SET idle_in_transaction_session_timeout = 0;
SET client_encoding = 'UTF8';
SET standard_conforming_strings = on;
SELECT pg_catalog.set_config('search_path', '', false);
SET check_function_bodies = false;
SET xmloption = content;
SET client_min_messages = warning;
SET row_security = off;

SET default_tablespace = '';

SET default_table_access_method = heap;

--
-- Name: deals; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.deals (
    id bigint NOT NULL,
    board integer NOT NULL,
    number bytea NOT NULL
);


--
-- Name: dl_archive; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.dl_archive (
    name text NOT NULL,
    value bigint NOT NULL
);


--
-- Name: hands; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.hands (
    key integer NOT NULL,
    deal bigint NOT NULL
);


--
-- Name: sets; Type: TABLE; Schema: public; Owner: -
--

CREATE TABLE public.sets (
    id bigint NOT NULL,
    digest bytea NOT NULL,
    fingerprint text NOT NULL,
    first_deal bigint NOT NULL,
    boards integer NOT NULL,
    low integer NOT NULL,
    high integer NOT NULL,
    event text,
    site text,
    date text,
    generator text,
    headers text,
    source text,
    archived text NOT NULL,
    played text,
    "user" text,
    dv text,
    event_key text,
    club text,
    played_by text,
    shared text
);


--
-- Name: sets_id_seq; Type: SEQUENCE; Schema: public; Owner: -
--

CREATE SEQUENCE public.sets_id_seq
    START WITH 1
    INCREMENT BY 1
    NO MINVALUE
    NO MAXVALUE
    CACHE 1;


--
-- Name: sets_id_seq; Type: SEQUENCE OWNED BY; Schema: public; Owner: -
--

ALTER SEQUENCE public.sets_id_seq OWNED BY public.sets.id;


--
-- Name: sets id; Type: DEFAULT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sets ALTER COLUMN id SET DEFAULT nextval('public.sets_id_seq'::regclass);


--
-- Data for Name: deals; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.deals (id, board, number) FROM stdin;
1	1	\\x627eff9e213efb7b44e1082a
2	2	\\x523a602a390a55161218f7a0
3	3	\\x02ab0ca4d7905921cdec9220
4	4	\\x91cb80996151486fd6b8acea
\.


--
-- Data for Name: dl_archive; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.dl_archive (name, value) FROM stdin;
schema	6
\.


--
-- Data for Name: hands; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.hands (key, deal) FROM stdin;
-1301695334	1
-1197373266	3
-1028354804	4
-700566190	4
-599008323	4
-560979949	4
-472160267	1
78946210	2
186311204	2
481428840	3
662749642	3
663131103	1
686987307	1
880515600	3
1542544828	2
2071125301	2
\.


--
-- Data for Name: sets; Type: TABLE DATA; Schema: public; Owner: -
--

COPY public.sets (id, digest, fingerprint, first_deal, boards, low, high, event, site, date, generator, headers, source, archived, played, "user", dv, event_key, club, played_by, shared) FROM stdin;
1	\\x12b3fdf28489ceba6eb3edcc0362a0bdde7b6f4a4102045d5f59b3bfae5ff0e8	12b3fdf28489ceba	1	4	1	4	\N	\N	\N	\N	\N	practice.pbn	2025-11-25T19:46:40Z	2025-11-25T19:46:40Z	director	W0E1S2W3	\N	\N	\N	\N
\.


--
-- Name: sets_id_seq; Type: SEQUENCE SET; Schema: public; Owner: -
--

SELECT pg_catalog.setval('public.sets_id_seq', 1, true);


--
-- Name: deals deals_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.deals
    ADD CONSTRAINT deals_pkey PRIMARY KEY (id);


--
-- Name: dl_archive dl_archive_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.dl_archive
    ADD CONSTRAINT dl_archive_pkey PRIMARY KEY (name);


--
-- Name: hands hands_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.hands
    ADD CONSTRAINT hands_pkey PRIMARY KEY (key, deal);


--
-- Name: sets sets_digest_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sets
    ADD CONSTRAINT sets_digest_key UNIQUE (digest);


--
-- Name: sets sets_first_deal_key; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sets
    ADD CONSTRAINT sets_first_deal_key UNIQUE (first_deal);


--
-- Name: sets sets_pkey; Type: CONSTRAINT; Schema: public; Owner: -
--

ALTER TABLE ONLY public.sets
    ADD CONSTRAINT sets_pkey PRIMARY KEY (id);


--
-- Name: sets_event_key; Type: INDEX; Schema: public; Owner: -
--

CREATE INDEX sets_event_key ON public.sets USING btree (event_key);


--
-- PostgreSQL database dump complete
--


