//! Cutting this process's connections to a host that stopped answering with them still open (a frozen
//! replica: its kernel still takes the bytes, so neither TCP keepalives nor a user timeout ever fire, and
//! the synchronous `postgres` client has no deadline of its own for a statement). Shutting the sockets down
//! makes every read blocked on them fail at once, as a lost connection, which the pool replaces and makes
//! again elsewhere. On Linux the sockets are found by their peer in `/proc/net/tcp` and `tcp6`; elsewhere
//! nothing is cut.

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

/// The addresses a PostgreSQL URL's hosts resolve to (none when it names a socket, or does not resolve).
pub(crate) fn addresses_of(url: &str) -> Vec<SocketAddr> {
    let Ok(config) = url.parse::<postgres::Config>() else { return Vec::new() };
    let ports = config.get_ports();
    config
        .get_hosts()
        .iter()
        .enumerate()
        .filter_map(|(k, host)| match host {
            postgres::config::Host::Tcp(name) => {
                let port = ports.get(k).or(ports.first()).copied().unwrap_or(5432);
                (name.as_str(), port).to_socket_addrs().ok()
            }
            #[allow(unreachable_patterns)]
            _ => None,
        })
        .flatten()
        .collect()
}

/// Shuts down every socket of this process connected to one of `peers`; how many.
#[cfg(target_os = "linux")]
pub(crate) fn cut_connections_to(peers: &[SocketAddr]) -> usize {
    if peers.is_empty() {
        return 0;
    }
    // The sockets' inodes whose peer is one of `peers`.
    let mut inodes = std::collections::HashSet::new();
    for (table, v6) in [("/proc/net/tcp", false), ("/proc/net/tcp6", true)] {
        let Ok(text) = std::fs::read_to_string(table) else { continue };
        for line in text.lines().skip(1) {
            let fields: Vec<&str> = line.split_whitespace().collect();
            if let (Some(remote), Some(inode)) = (fields.get(2), fields.get(9)) {
                if parse_peer(remote, v6).is_some_and(|p| peers.contains(&p)) {
                    inodes.insert(format!("socket:[{inode}]"));
                }
            }
        }
    }
    let Ok(fds) = std::fs::read_dir("/proc/self/fd") else { return 0 };
    let mut cut = 0;
    for fd in fds.flatten() {
        let is_peer = std::fs::read_link(fd.path()).is_ok_and(|target| inodes.contains(&*target.to_string_lossy()));
        if let (true, Ok(n)) = (is_peer, fd.file_name().to_string_lossy().parse::<i32>()) {
            // SAFETY: shutdown on a descriptor of this process changes no memory; a descriptor closed and
            // reused meanwhile would be another socket to the same peer (its inode is checked just above),
            // or not a socket, where shutdown fails harmlessly.
            if unsafe { libc::shutdown(n, libc::SHUT_RDWR) } == 0 {
                cut += 1;
            }
        }
    }
    cut
}

#[cfg(not(target_os = "linux"))]
pub(crate) fn cut_connections_to(_: &[SocketAddr]) -> usize {
    0
}

/// A peer as `/proc/net/tcp` writes it: the address in hex, in the kernel's byte order, and the port.
#[cfg(target_os = "linux")]
fn parse_peer(text: &str, v6: bool) -> Option<SocketAddr> {
    let (address, port) = text.split_once(':')?;
    let port = u16::from_str_radix(port, 16).ok()?;
    let ip = if v6 {
        if address.len() != 32 {
            return None;
        }
        let mut bytes = [0u8; 16];
        for word in 0..4 {
            let w = u32::from_str_radix(&address[word * 8..word * 8 + 8], 16).ok()?;
            bytes[word * 4..word * 4 + 4].copy_from_slice(&w.to_ne_bytes());
        }
        let ip = std::net::Ipv6Addr::from(bytes);
        // An IPv4 peer of an IPv6 socket.
        ip.to_ipv4_mapped().map_or(IpAddr::V6(ip), IpAddr::V4)
    } else {
        IpAddr::V4(std::net::Ipv4Addr::from(u32::from_str_radix(address, 16).ok()?.to_ne_bytes()))
    };
    Some(SocketAddr::new(ip, port))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    #[test]
    fn a_peer_reads_as_the_kernel_writes_it() {
        assert_eq!(parse_peer("0100007F:1538", false), Some("127.0.0.1:5432".parse().unwrap()));
        assert_eq!(parse_peer("0000000000000000FFFF00000100007F:1538", true), Some("127.0.0.1:5432".parse().unwrap()));
    }

    #[test]
    fn a_socket_to_a_peer_is_cut_and_another_is_not() {
        use std::io::Read;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let other = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let peer = listener.local_addr().unwrap();
        let mut to_peer = std::net::TcpStream::connect(peer).unwrap();
        let _to_other = std::net::TcpStream::connect(other.local_addr().unwrap()).unwrap();
        let (_held, _) = listener.accept().unwrap();
        // Blocked on a read that no answer will end, as a statement on a frozen server is.
        let reader = std::thread::spawn(move || to_peer.read(&mut [0u8; 16]));
        std::thread::sleep(std::time::Duration::from_millis(100));
        assert_eq!(cut_connections_to(&[peer]), 1, "only the socket to the peer");
        assert_eq!(reader.join().unwrap().unwrap(), 0, "the blocked read ends");
    }
}
