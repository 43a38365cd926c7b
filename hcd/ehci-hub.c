/*
 * hcd/ehci-hub.c - the EHCI root hub's ports, as Linux's ehci-hub.c: the
 * change bitmap for the root hub's status URB and the hub-class requests
 * the hub driver sends to the root hub, translated to PORTSC (EHCI
 * 2.3.9; notes 6.3, 6.10).
 *
 * Port reset follows Linux: SetPortFeature(PORT_RESET) sets PR and notes
 * when 50 ms will have passed; the hub driver waits, and its next
 * GetPortStatus ends the reset (PR = 0), waits up to 2 ms for the port to
 * leave reset and reports C_RESET.  A device the controller did not
 * enable is full or low speed: real hardware hands it to a companion
 * controller; with none, it is logged and left disabled.
 */
#include <string.h>

#include "hcd/ehci.h"

#define RESET_MS	50	/* USB 2.0 7.1.7.5: root port reset */

/*
 * Port change bitmap (USB 2.0 11.12.4): bit n for port n.  Returns its
 * length in bytes, or 0 when nothing changed.
 */
int
ehci_hub_status_data(struct usb_hcd *hcd, char *buf)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);
	uint32_t	 temp, mask;
	int		 ports, i, retval = 1, changed = 0;
	uint64_t	 now = ehci_now(ehci);

	/* init status to no-changes */
	buf[0] = 0;
	ports = (int)HCS_N_PORTS(ehci->hcs_params);
	if (ports > 7) {
		buf[1] = 0;
		retval++;
	}
	if (ehci->rh_state != EHCI_RH_RUNNING)
		return 0;

	mask = PORT_CSC | PORT_PEC | PORT_OCC;
	for (i = 0; i < ports; i++) {
		temp = ehci_readl(ehci, EHCI_PORTSC(i));
		/* report even ports with OWNER set, so that the hub driver
		 * sees a device leave for the companion */
		if ((temp & mask) != 0 || (ehci->reset_done[i] != 0 &&
		    now >= ehci->reset_done[i])) {
			if (i < 7)
				buf[0] = (char)(buf[0] | 1 << (i + 1));
			else
				buf[1] = (char)(buf[1] | 1 << (i - 7));
			changed = 1;
		}
	}
	return changed ? retval : 0;
}

/* The hub descriptor (USB 2.0 11.23.2.1) as Linux's ehci_hub_descriptor
 * fills it; buf holds the 15 bytes of struct usb_hub_descriptor. */
static int
ehci_hub_descriptor(struct ehci_hcd *ehci, uint8_t *desc)
{
	int		 ports = (int)HCS_N_PORTS(ehci->hcs_params);
	int		 n = 1 + ports / 8;
	uint16_t	 temp;

	memset(desc, 0, 15);
	desc[0] = (uint8_t)(7 + 2 * n);		/* bDescLength */
	desc[1] = USB_DT_HUB;
	desc[2] = (uint8_t)ports;		/* bNbrPorts */
	temp = 0x0008;				/* per-port overcurrent */
	if (HCS_PPC(ehci->hcs_params))
		temp |= 0x0001;			/* per-port power control */
	else
		temp |= 0x0002;			/* no power switching */
	if (HCS_INDICATOR(ehci->hcs_params))
		temp |= 0x0080;			/* port indicators */
	put_le16(desc + 3, temp);		/* wHubCharacteristics */
	desc[5] = 10;		/* bPwrOn2PwrGood: EHCI 2.3.9 says 20 ms */
	desc[6] = 0;				/* bHubContrCurrent */
	/* ports removable, and usb 1.0 legacy PortPwrCtrlMask */
	memset(desc + 7, 0, (size_t)n);
	memset(desc + 7 + n, 0xff, (size_t)n);
	return 15;
}

/* Switch a port's power (PP, only with HCSPARAMS.PPC). */
static void
ehci_port_power(struct ehci_hcd *ehci, int index, int enable)
{
	uint32_t	 temp;

	if (!HCS_PPC(ehci->hcs_params))
		return;
	temp = ehci_readl(ehci, EHCI_PORTSC(index)) & ~PORT_RWC_BITS;
	if (enable)
		ehci_writel(ehci, EHCI_PORTSC(index), temp | PORT_POWER);
	else
		ehci_writel(ehci, EHCI_PORTSC(index), temp & ~PORT_POWER);
}

/*
 * After a reset: a connected port the controller did not enable holds a
 * full speed device (notes 6.10 step 4).  Hand it to a companion if there
 * is one; else say so and leave it disabled.
 */
static uint32_t
check_reset_complete(struct ehci_hcd *ehci, int index, uint32_t port_status)
{
	if (!(port_status & PORT_CONNECT))
		return port_status;
	if (port_status & PORT_PE) {
		ehci_log(ehci, "port %d reset complete, port enabled, "
		    "high speed", index + 1);
		return port_status;
	}
	if (HCS_N_CC(ehci->hcs_params) == 0) {
		ehci_log(ehci, "port %d: full speed device, not enabled "
		    "after reset; no companion controller to hand it to, "
		    "port left disabled", index + 1);
		return port_status;
	}
	ehci_log(ehci, "port %d full speed --> companion", index + 1);
	port_status |= PORT_OWNER;
	port_status &= ~PORT_RWC_BITS;
	ehci_writel(ehci, EHCI_PORTSC(index), port_status);
	return ehci_readl(ehci, EHCI_PORTSC(index));
}

/* GetPortStatus: wPortStatus | wPortChange << 16 (USB 2.0 11.24.2.7). */
static int
get_port_status(struct ehci_hcd *ehci, int index, uint32_t *out)
{
	uint32_t	 temp, status = 0;
	int		 retval;

	temp = ehci_readl(ehci, EHCI_PORTSC(index));

	/* wPortChange bits */
	if (temp & PORT_CSC)
		status |= (uint32_t)USB_PORT_STAT_C_CONNECTION << 16;
	if (temp & PORT_PEC)
		status |= (uint32_t)USB_PORT_STAT_C_ENABLE << 16;
	if (temp & PORT_OCC)
		status |= (uint32_t)USB_PORT_STAT_C_OVERCURRENT << 16;

	/* whoever resets must GetPortStatus to complete it!! */
	if ((temp & PORT_RESET) && ehci->reset_done[index] != 0 &&
	    ehci_now(ehci) >= ehci->reset_done[index]) {
		status |= (uint32_t)USB_PORT_STAT_C_RESET << 16;
		ehci->reset_done[index] = 0;

		/* force reset to complete */
		ehci_writel(ehci, EHCI_PORTSC(index),
		    temp & ~(PORT_RWC_BITS | PORT_RESET));
		/* the HC finishes within 2 ms (EHCI 2.3.9) */
		retval = ehci_handshake(ehci, EHCI_PORTSC(index), PORT_RESET,
		    0, 2000);
		if (retval != 0) {
			ehci_log(ehci, "port %d reset error %d", index + 1,
			    retval);
			return -EPIPE;
		}
		/* see what we found out */
		temp = check_reset_complete(ehci, index,
		    ehci_readl(ehci, EHCI_PORTSC(index)));
	}

	/* an owned-by-companion port reads as empty but powered */
	if ((temp & PORT_CONNECT) && !(temp & PORT_OWNER)) {
		status |= USB_PORT_STAT_CONNECTION;
		/* no integrated TT: whatever is here talks high speed */
		status |= USB_PORT_STAT_HIGH_SPEED;
	}
	if (temp & PORT_PE)
		status |= USB_PORT_STAT_ENABLE;
	if (temp & (PORT_SUSPEND | PORT_RESUME))
		status |= USB_PORT_STAT_SUSPEND;
	if (temp & PORT_OC)
		status |= USB_PORT_STAT_OVERCURRENT;
	if (temp & PORT_RESET)
		status |= USB_PORT_STAT_RESET;
	if (temp & PORT_POWER)
		status |= USB_PORT_STAT_POWER;
	*out = status;
	return 0;
}

/*
 * Hub-class requests to the root hub.  typeReq is bmRequestType << 8 |
 * bRequest.  Returns the bytes put in buf, or -EPIPE (the request
 * stalls).
 */
int
ehci_hub_control(struct usb_hcd *hcd, u16 typeReq, u16 wValue, u16 wIndex,
    char *buf, u16 wLength)
{
	struct ehci_hcd	*ehci = hcd_to_ehci(hcd);
	int		 ports = (int)HCS_N_PORTS(ehci->hcs_params);
	uint8_t		*ubuf = (uint8_t *)buf;
	uint32_t	 temp, status;
	int		 index = (wIndex & 0xff) - 1;

	(void)wLength;
	switch (typeReq) {
	case ClearHubFeature:
		switch (wValue) {
		case C_HUB_LOCAL_POWER:
		case C_HUB_OVER_CURRENT:
			/* no hub-wide feature/status flags */
			return 0;
		default:
			return -EPIPE;
		}
	case GetHubDescriptor:
		if ((wValue >> 8) != USB_DT_HUB)
			return -EPIPE;
		return ehci_hub_descriptor(ehci, ubuf);
	case GetHubStatus:
		/* no hub-wide feature/status flags */
		memset(ubuf, 0, 4);
		return 4;
	case SetHubFeature:
		return -EPIPE;
	default:
		break;
	}

	/* port requests */
	if ((wIndex & 0xff) == 0 || (wIndex & 0xff) > ports)
		return -EPIPE;

	switch (typeReq) {
	case GetPortStatus:
		if (get_port_status(ehci, index, &status) != 0)
			return -EPIPE;
		put_le32(ubuf, status);
		return 4;

	case ClearPortFeature:
		/* even if the companion owns the port, the hub driver must be
		 * able to clear its change bits */
		temp = ehci_readl(ehci, EHCI_PORTSC(index)) & ~PORT_RWC_BITS;
		switch (wValue) {
		case USB_PORT_FEAT_ENABLE:
			ehci_writel(ehci, EHCI_PORTSC(index), temp & ~PORT_PE);
			break;
		case USB_PORT_FEAT_C_ENABLE:
			ehci_writel(ehci, EHCI_PORTSC(index), temp | PORT_PEC);
			break;
		case USB_PORT_FEAT_C_CONNECTION:
			ehci_writel(ehci, EHCI_PORTSC(index), temp | PORT_CSC);
			break;
		case USB_PORT_FEAT_C_OVER_CURRENT:
			ehci_writel(ehci, EHCI_PORTSC(index), temp | PORT_OCC);
			break;
		case USB_PORT_FEAT_POWER:
			ehci_port_power(ehci, index, 0);
			break;
		case USB_PORT_FEAT_C_RESET:
			/* GetPortStatus clears reset */
		case USB_PORT_FEAT_C_SUSPEND:
		case USB_PORT_FEAT_INDICATOR:
			break;
		default:
			/* suspend/resume signalling is not implemented */
			return -EPIPE;
		}
		(void)ehci_readl(ehci, EHCI_USBCMD);	/* unblock write */
		return 0;

	case SetPortFeature:
		temp = ehci_readl(ehci, EHCI_PORTSC(index)) & ~PORT_RWC_BITS;
		if (temp & PORT_OWNER)
			return 0;
		switch (wValue & 0xff) {
		case USB_PORT_FEAT_POWER:
			ehci_port_power(ehci, index, 1);
			break;
		case USB_PORT_FEAT_RESET:
			if (temp & (PORT_SUSPEND | PORT_RESUME))
				return -EPIPE;
			/*
			 * Line state K on a connected, disabled port: low
			 * speed (notes 6.10 step 3).  It belongs to a
			 * companion; without one the reset goes ahead and
			 * leaves the port disabled.
			 */
			if ((temp & (PORT_PE | PORT_CONNECT)) ==
			    PORT_CONNECT && PORT_USB11(temp)) {
				if (HCS_N_CC(ehci->hcs_params) != 0) {
					ehci_log(ehci, "port %d low speed --> "
					    "companion", index + 1);
					ehci_writel(ehci, EHCI_PORTSC(index),
					    temp | PORT_OWNER);
					break;
				}
				ehci_log(ehci, "port %d: low speed device; no "
				    "companion controller, it will not be "
				    "enabled", index + 1);
			}
			temp |= PORT_RESET;
			temp &= ~PORT_PE;
			/* caller must wait, then call GetPortStatus: USB
			 * 2.0 says 50 ms resets on root */
			ehci->reset_done[index] = ehci_now(ehci) +
			    RESET_MS * SIM_MS;
			ehci_writel(ehci, EHCI_PORTSC(index), temp);
			break;
		case USB_PORT_FEAT_SUSPEND:
			/* selective suspend is not implemented */
			return -EPIPE;
		case USB_PORT_FEAT_TEST:
		case USB_PORT_FEAT_INDICATOR:
			return -EPIPE;
		default:
			return -EPIPE;
		}
		(void)ehci_readl(ehci, EHCI_USBCMD);	/* unblock write */
		return 0;

	default:
		return -EPIPE;
	}
}
