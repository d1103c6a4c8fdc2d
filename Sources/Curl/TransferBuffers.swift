// TransferBuffers.swift: what curl's C callbacks of one CurlTransfer read and write: the upload (read in chunks), the
// answer body with its cap, and the connect check. One transfer, one thread: no lock.
import CCurl
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

final class TransferBuffers {
    private let upload: [UInt8]
    private var offset = 0
    private let limit: Int?
    private(set) var body: [UInt8] = []
    private(set) var tooLarge = false
    private let allowConnect: ((UnsafePointer<sockaddr>) -> Bool)?
    private(set) var refused = false

    init(upload: [UInt8], limit: Int?, allowConnect: ((UnsafePointer<sockaddr>) -> Bool)?) {
        self.upload = upload
        self.limit = limit
        self.allowConnect = allowConnect
    }

    /// Points curl's write (always), read (when uploading) and open-socket (when guarding) callbacks at `buffers`.
    static func attach(_ buffers: Unmanaged<TransferBuffers>, to curl: UnsafeMutableRawPointer, uploading: Bool,
                       guardingConnects: Bool) {
        fd_curl_setopt_pointer(curl, CURLOPT_WRITEDATA, buffers.toOpaque())
        fd_curl_setopt_write(curl) { buffer, size, count, userdata in
            guard let userdata else { return 0 }
            return Unmanaged<TransferBuffers>.fromOpaque(userdata).takeUnretainedValue().write(buffer, count: size * count)
        }
        if uploading {
            fd_curl_setopt_long(curl, CURLOPT_UPLOAD, 1)
            fd_curl_setopt_pointer(curl, CURLOPT_READDATA, buffers.toOpaque())
            fd_curl_setopt_read(curl) { buffer, size, count, userdata in
                guard let buffer, let userdata else { return 0 }
                return Unmanaged<TransferBuffers>.fromOpaque(userdata).takeUnretainedValue().read(into: buffer, capacity: size * count)
            }
        }
        if guardingConnects {
            fd_curl_setopt_pointer(curl, CURLOPT_OPENSOCKETDATA, buffers.toOpaque())
            fd_curl_setopt_opensocket(curl) { context, _, address in
                guard let context, let address else { return CURL_SOCKET_BAD }
                return Unmanaged<TransferBuffers>.fromOpaque(context).takeUnretainedValue().openSocket(address)
            }
        }
    }

    private func write(_ buffer: UnsafeMutablePointer<CChar>?, count: Int) -> Int {
        guard limit.map({ body.count + count <= $0 }) ?? true, let buffer else { tooLarge = true; return 0 }
        buffer.withMemoryRebound(to: UInt8.self, capacity: count) { body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count)) }
        return count
    }

    private func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        let count = min(capacity, upload.count - offset)
        guard count > 0 else { return 0 }
        upload.withUnsafeBufferPointer { source in
            UnsafeMutableRawPointer(buffer).copyMemory(from: source.baseAddress! + offset, byteCount: count)
        }
        offset += count
        return count
    }

    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        let family = address.pointee.family, type = address.pointee.socktype, proto = address.pointee.protocol
        let at = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr)!   // the whole address lies there
        let socketAddress = UnsafeRawPointer(address).advanced(by: at).assumingMemoryBound(to: sockaddr.self)
        guard allowConnect?(socketAddress) ?? true else { refused = true; return CURL_SOCKET_BAD }
        return socket(family, type, proto)
    }
}
