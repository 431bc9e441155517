// SPDX-License-Identifier: GPL-2.0
/*
 * libwind-fi.so: the FI_MSG and FI_TAGGED entry points, each a thin layer
 * over wfi_send() and wfi_recv() (progress.c).  Calls without a flags
 * argument take the endpoint's default op flags (FI_COMPLETION under
 * FI_SELECTIVE_COMPLETION); fi_inject() and fi_injectdata() never
 * complete to a CQ (WFI_INJECT_CALL), FI_INJECT as an op flag does.
 */
#include "wind_fi.h"

static inline struct wfi_ep *to_ep(struct fid_ep *fep)
{
	return wfi_container_of(fep, struct wfi_ep, ep);
}

/* FI_MSG */

static ssize_t msg_recv(struct fid_ep *fep, void *buf, size_t len, void *desc,
			fi_addr_t src, void *context)
{
	struct iovec iov = { buf, len };

	(void)desc;
	return wfi_recv(to_ep(fep), &iov, 1, src, WFI_OP_MSG, 0, 0, context,
		        to_ep(fep)->rx_op_flags);
}

static ssize_t msg_recvv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t src, void *context)
{
	(void)desc;
	return wfi_recv(to_ep(fep), iov, count, src, WFI_OP_MSG, 0, 0, context,
		        to_ep(fep)->rx_op_flags);
}

static ssize_t msg_recvmsg(struct fid_ep *fep, const struct fi_msg *msg,
			   uint64_t flags)
{
	return wfi_recv(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		        WFI_OP_MSG, 0, 0, msg->context, flags);
}

static ssize_t msg_send(struct fid_ep *fep, const void *buf, size_t len,
			void *desc, fi_addr_t dest, void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return wfi_send(to_ep(fep), &iov, 1, dest, WFI_OP_MSG, 0, 0, false,
		        context, to_ep(fep)->tx_op_flags);
}

static ssize_t msg_sendv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t dest, void *context)
{
	(void)desc;
	return wfi_send(to_ep(fep), iov, count, dest, WFI_OP_MSG, 0, 0, false,
		        context, to_ep(fep)->tx_op_flags);
}

static ssize_t msg_sendmsg(struct fid_ep *fep, const struct fi_msg *msg,
			   uint64_t flags)
{
	return wfi_send(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		        WFI_OP_MSG, 0, msg->data, flags & FI_REMOTE_CQ_DATA,
		        msg->context, flags & ~WFI_INJECT_CALL);
}

static ssize_t msg_inject(struct fid_ep *fep, const void *buf, size_t len,
			  fi_addr_t dest)
{
	struct iovec iov = { (void *)buf, len };

	return wfi_send(to_ep(fep), &iov, 1, dest, WFI_OP_MSG, 0, 0, false,
		        NULL, FI_INJECT | WFI_INJECT_CALL);
}

static ssize_t msg_senddata(struct fid_ep *fep, const void *buf, size_t len,
			    void *desc, uint64_t data, fi_addr_t dest,
			    void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return wfi_send(to_ep(fep), &iov, 1, dest, WFI_OP_MSG, 0, data, true,
		        context, to_ep(fep)->tx_op_flags);
}

static ssize_t msg_injectdata(struct fid_ep *fep, const void *buf, size_t len,
			      uint64_t data, fi_addr_t dest)
{
	struct iovec iov = { (void *)buf, len };

	return wfi_send(to_ep(fep), &iov, 1, dest, WFI_OP_MSG, 0, data, true,
		        NULL, FI_INJECT | WFI_INJECT_CALL);
}

struct fi_ops_msg wfi_msg_ops = {
	.size = sizeof(struct fi_ops_msg),
	.recv = msg_recv,
	.recvv = msg_recvv,
	.recvmsg = msg_recvmsg,
	.send = msg_send,
	.sendv = msg_sendv,
	.sendmsg = msg_sendmsg,
	.inject = msg_inject,
	.senddata = msg_senddata,
	.injectdata = msg_injectdata,
};

/* FI_TAGGED */

static ssize_t tag_recv(struct fid_ep *fep, void *buf, size_t len, void *desc,
			fi_addr_t src, uint64_t tag, uint64_t ignore,
			void *context)
{
	struct iovec iov = { buf, len };

	(void)desc;
	return wfi_recv(to_ep(fep), &iov, 1, src, WFI_OP_TAGGED, tag, ignore,
		        context, to_ep(fep)->rx_op_flags);
}

static ssize_t tag_recvv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t src, uint64_t tag,
			 uint64_t ignore, void *context)
{
	(void)desc;
	return wfi_recv(to_ep(fep), iov, count, src, WFI_OP_TAGGED, tag, ignore,
		        context, to_ep(fep)->rx_op_flags);
}

static ssize_t tag_recvmsg(struct fid_ep *fep, const struct fi_msg_tagged *msg,
			   uint64_t flags)
{
	return wfi_recv(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		        WFI_OP_TAGGED, msg->tag, msg->ignore, msg->context, flags);
}

static ssize_t tag_send(struct fid_ep *fep, const void *buf, size_t len,
			void *desc, fi_addr_t dest, uint64_t tag, void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return wfi_send(to_ep(fep), &iov, 1, dest, WFI_OP_TAGGED, tag, 0, false,
		        context, to_ep(fep)->tx_op_flags);
}

static ssize_t tag_sendv(struct fid_ep *fep, const struct iovec *iov,
			 void **desc, size_t count, fi_addr_t dest, uint64_t tag,
			 void *context)
{
	(void)desc;
	return wfi_send(to_ep(fep), iov, count, dest, WFI_OP_TAGGED, tag, 0,
		        false, context, to_ep(fep)->tx_op_flags);
}

static ssize_t tag_sendmsg(struct fid_ep *fep, const struct fi_msg_tagged *msg,
			   uint64_t flags)
{
	return wfi_send(to_ep(fep), msg->msg_iov, msg->iov_count, msg->addr,
		        WFI_OP_TAGGED, msg->tag, msg->data,
		        flags & FI_REMOTE_CQ_DATA, msg->context,
		        flags & ~WFI_INJECT_CALL);
}

static ssize_t tag_inject(struct fid_ep *fep, const void *buf, size_t len,
			  fi_addr_t dest, uint64_t tag)
{
	struct iovec iov = { (void *)buf, len };

	return wfi_send(to_ep(fep), &iov, 1, dest, WFI_OP_TAGGED, tag, 0, false,
		        NULL, FI_INJECT | WFI_INJECT_CALL);
}

static ssize_t tag_senddata(struct fid_ep *fep, const void *buf, size_t len,
			    void *desc, uint64_t data, fi_addr_t dest,
			    uint64_t tag, void *context)
{
	struct iovec iov = { (void *)buf, len };

	(void)desc;
	return wfi_send(to_ep(fep), &iov, 1, dest, WFI_OP_TAGGED, tag, data, true,
		        context, to_ep(fep)->tx_op_flags);
}

static ssize_t tag_injectdata(struct fid_ep *fep, const void *buf, size_t len,
			      uint64_t data, fi_addr_t dest, uint64_t tag)
{
	struct iovec iov = { (void *)buf, len };

	return wfi_send(to_ep(fep), &iov, 1, dest, WFI_OP_TAGGED, tag, data, true,
		        NULL, FI_INJECT | WFI_INJECT_CALL);
}

struct fi_ops_tagged wfi_tagged_ops = {
	.size = sizeof(struct fi_ops_tagged),
	.recv = tag_recv,
	.recvv = tag_recvv,
	.recvmsg = tag_recvmsg,
	.send = tag_send,
	.sendv = tag_sendv,
	.sendmsg = tag_sendmsg,
	.inject = tag_inject,
	.senddata = tag_senddata,
	.injectdata = tag_injectdata,
};
