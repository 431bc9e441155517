// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: the progress thread (FI_PROGRESS_AUTO).
 *
 * Without it, what needs the target process (reads, atomics, software
 * writes, the answers to them, a chunked send's remaining pieces, the
 * resends of peer.c) happens only while the application reads a CQ or a
 * counter.  With it (FI_PROGRESS_AUTO, the default; FI_PROGRESS_MANUAL
 * when the application asks for it, or FI_WIND_PROGRESS=manual), each
 * domain has one thread that sleeps in poll() on the sockets of the
 * domain's enabled endpoints and an eventfd that wakes it when that set
 * changes or the domain closes, and runs an endpoint's progress when its
 * socket has something to read or report, or on a timer while something
 * waits on time (probes, async Direct Map writes, resends).
 *
 * Locking: the thread runs progress under the domain lock, exactly as an
 * application thread reading a CQ does; everything progress touches is
 * under that lock already (wind_fi.h).  It never holds the lock in
 * poll(), and it only touches endpoints that are on the domain's list
 * while it holds the lock: an endpoint leaves the list under the lock
 * before its socket is closed, so a poll() on a socket closed meanwhile
 * is at most a spurious wakeup (POLLNVAL), after which the set is built
 * again.
 *
 * Who reads: an application that progresses an endpoint itself (a
 * busy-polling CQ read, a ping-pong) reads its messages faster than a
 * thread woken by poll() could, and a thread taking them would only add
 * a wakeup and the lock's contention to each.  So an endpoint that the
 * application progressed since the thread last looked is left out of
 * poll(), and looked at again WFI_THREAD_APP_MS later, then twice as
 * late each time up to WFI_THREAD_APP_MAX_MS, and not while the
 * application holds the lock (pthread_mutex_trylock(): a thread that
 * slept on the mutex would wake it again when the application lets go,
 * which on a full CPU takes it from the application): once a look finds
 * that the application did not progress it meanwhile, its socket is
 * polled again.  An endpoint whose process stops calling into libfabric
 * is served at most WFI_THREAD_APP_MAX_MS later than it would be at
 * once, and then at once while it does not call.  An endpoint whose
 * progress read nothing (its unexpected messages are at their bound,
 * FI_WIND_UNEXP_MAX) is left out of poll() for WFI_THREAD_IDLE_MS, so
 * that a socket that stays readable does not make the thread spin.
 * Completions the thread produced wake a waiting fi_cq_sread() or
 * fi_cntr_wait() through the domain's second eventfd.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>

#include "wind_fi.h"

/* how often the thread looks at an endpoint the application progresses:
 * after 1 ms, then twice as long each look that finds it progressed
 * again, up to WFI_THREAD_APP_MAX_MS */
#define WFI_THREAD_APP_MS	1
#define WFI_THREAD_APP_MAX_MS	16
#define WFI_THREAD_IDLE_MS	10

void wfi_thread_kick(struct wfi_domain *dom)
{
	uint64_t one = 1;

	if (dom->wake_fd >= 0 && write(dom->wake_fd, &one, sizeof(one)) < 0) {
		/* the counter is full: the thread wakes anyway */
	}
}

void wfi_thread_notify(struct wfi_domain *dom)
{
	uint64_t one = 1;

	if (dom->done_fd >= 0 && write(dom->done_fd, &one, sizeof(one)) < 0) {
		/* already signalled */
	}
}

/* The poll() timeout, in ms, while @ep waits on time; -1: none */
static int ep_timeout(const struct wfi_ep *ep)
{
	if (ep->stashed)
		return 0;
	if (ep->ndm)
		return 1;
	if (ep->txc.active || !wfi_list_empty(&ep->peers))
		return WFI_THREAD_IDLE_MS;
	if (ep->probe_ms && (ep->ndirected || !wfi_list_empty(&ep->pending) ||
			     !wfi_list_empty(&ep->rxcs)))
		return 100;
	return -1;
}

static int min_timeout(int a, int b)
{
	if (a < 0)
		return b;
	if (b < 0)
		return a;
	return a < b ? a : b;
}

static void *progress_thread(void *arg)
{
	struct wfi_domain *dom = arg;
	struct pollfd *pfd = NULL;
	int app_ms = WFI_THREAD_APP_MS;
	size_t cap = 0;

	pthread_mutex_lock(&dom->lock);
	while (!dom->stop) {
		struct wfi_list *pos;
		size_t n = 1;
		int timeout = -1, ready;
		int64_t now = wfi_now_ms();
		bool notify = false, app = false;

		for (pos = dom->eps.next; pos != &dom->eps; pos = pos->next)
			n++;
		if (n > cap) {
			struct pollfd *np = realloc(pfd, n * sizeof(*pfd));

			if (!np) {
				/* try again in a while */
				pthread_mutex_unlock(&dom->lock);
				poll(NULL, 0, WFI_THREAD_IDLE_MS);
				pthread_mutex_lock(&dom->lock);
				continue;
			}
			pfd = np;
			cap = n;
		}
		pfd[0].fd = dom->wake_fd;
		pfd[0].events = POLLIN;
		pfd[0].revents = 0;
		n = 1;
		for (pos = dom->eps.next; pos != &dom->eps; pos = pos->next) {
			struct wfi_ep *ep = wfi_container_of(pos, struct wfi_ep, dlink);

			ep->thr_slot = 0;
			if (!ep->enabled || ep->fd < 0)
				continue;
			if (ep->app_seq != ep->thr_seen) {
				/* the application progressed it lately: it
				 * reads its messages itself; look again soon */
				ep->thr_seen = ep->app_seq;
				app = true;
				continue;
			}
			if (ep->thr_idle_until > now) {
				timeout = min_timeout(timeout,
						      (int)(ep->thr_idle_until - now));
				continue;
			}
			timeout = min_timeout(timeout, ep_timeout(ep));
			ep->thr_slot = n;
			pfd[n].fd = ep->fd;
			pfd[n].events = POLLIN;
			pfd[n].revents = 0;
			n++;
		}
		if (app) {
			timeout = min_timeout(timeout, app_ms);
			app_ms = app_ms * 2 > WFI_THREAD_APP_MAX_MS ?
				 WFI_THREAD_APP_MAX_MS : app_ms * 2;
		} else {
			app_ms = WFI_THREAD_APP_MS;
		}
		pthread_mutex_unlock(&dom->lock);
		for (;;) {
			ready = poll(pfd, n, timeout);
			if (ready > 0 && (pfd[0].revents & POLLIN)) {
				uint64_t v;

				if (read(dom->wake_fd, &v, sizeof(v)) < 0) {
					/* another thread read it: woken all
					 * the same */
				}
			}
			/* a timeout while the application holds the lock:
			 * it is progressing; do not make it wait for us */
			if (ready != 0 || !pthread_mutex_trylock(&dom->lock))
				break;
		}
		if (ready != 0)
			pthread_mutex_lock(&dom->lock);
		if (dom->stop)
			break;
		now = wfi_now_ms();
		for (pos = dom->eps.next; pos != &dom->eps; pos = pos->next) {
			struct wfi_ep *ep = wfi_container_of(pos, struct wfi_ep, dlink);
			uint64_t before;
			bool ready;

			/* not polled, or the application came back to it */
			if (!ep->thr_slot || ep->thr_slot >= n ||
			    pfd[ep->thr_slot].fd != ep->fd ||
			    ep->app_seq != ep->thr_seen)
				continue;
			ready = pfd[ep->thr_slot].revents != 0;
			if (!ready && ep_timeout(ep) < 0)
				continue;
			before = ep->consumed + dom->events;
			wfi_ep_progress_auto(ep);
			ep->thr_seen = ep->app_seq;
			if (ep->consumed + dom->events != before)
				notify = true;
			else if (ready || ep->stashed)
				/* something to read, and nothing could be read
				 * (the unexpected messages are at their bound):
				 * not again at once */
				ep->thr_idle_until = now + WFI_THREAD_IDLE_MS;
		}
		if (notify)
			wfi_thread_notify(dom);
	}
	pthread_mutex_unlock(&dom->lock);
	free(pfd);
	return NULL;
}

/**
 * wfi_thread_start() - start the domain's progress thread, once
 * @dom: the domain, lock held, dom->auto_progress
 *
 * Return: 0 or a negative FI_E*.
 */
int wfi_thread_start(struct wfi_domain *dom)
{
	sigset_t all, old;
	int err;

	if (dom->thread_running)
		return 0;
	dom->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	dom->done_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
	if (dom->wake_fd < 0 || dom->done_fd < 0)
		goto err;
	/* the application's signals are for its own threads */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&dom->thread, NULL, progress_thread, dom);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		errno = err;
		goto err;
	}
	dom->thread_running = true;
	return 0;
err:
	WFI_WARN(FI_LOG_DOMAIN, "progress thread: %s\n", strerror(errno));
	if (dom->wake_fd >= 0)
		close(dom->wake_fd);
	if (dom->done_fd >= 0)
		close(dom->done_fd);
	dom->wake_fd = dom->done_fd = -1;
	return -FI_ENOMEM;
}

/**
 * wfi_thread_stop() - stop the domain's progress thread
 * @dom: the domain, lock not held
 */
void wfi_thread_stop(struct wfi_domain *dom)
{
	pthread_mutex_lock(&dom->lock);
	if (!dom->thread_running) {
		pthread_mutex_unlock(&dom->lock);
		return;
	}
	dom->stop = true;
	pthread_mutex_unlock(&dom->lock);
	wfi_thread_kick(dom);
	pthread_join(dom->thread, NULL);
	dom->thread_running = false;
	close(dom->wake_fd);
	close(dom->done_fd);
	dom->wake_fd = dom->done_fd = -1;
}
