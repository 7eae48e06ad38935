# filesystems.sh - ext4 and xfs on one ssdemu device: files with known
# checksums survive unmount, fsck and remount; fstrim reaches the FTL.
. /lib.sh
load_module
dev=$(ssdctl create fs --config /configs/small-test.conf) || fail "create"
echo "device=$dev"
mkdir -p /mnt/t

for fs in ext4 xfs; do
	case $fs in
	ext4) mkfs.ext4 -q -F "$dev" || fail "mkfs.ext4" ;;
	xfs) mkfs.xfs -q -f "$dev" || fail "mkfs.xfs" ;;
	esac
	mount -t $fs "$dev" /mnt/t || fail "mount $fs"
	i=1
	while [ $i -le 24 ]; do
		dd if=/dev/urandom of=/mnt/t/file$i bs=64k count=$i 2>/dev/null ||
			fail "write file$i"
		i=$((i + 1))
	done
	mkdir /mnt/t/tree
	cp -a /usr/lib /mnt/t/tree/ 2>/dev/null || fail "copy tree"
	(cd /mnt/t && find . -type f | sort | xargs md5sum > /tmp/sums.$fs)
	sync	# on flash before they are deleted, so fstrim has pages to unmap
	rm /mnt/t/file1 /mnt/t/file2
	sed -i '/file1$/d; /file2$/d' /tmp/sums.$fs
	sync	# ext4 frees the deleted files' blocks at the journal commit
	fstrim -v /mnt/t || fail "fstrim"
	umount /mnt/t || fail "umount"
	case $fs in
	ext4) e2fsck -fn "$dev" || fail "e2fsck found problems" ;;
	xfs) xfs_repair -n "$dev" || fail "xfs_repair found problems" ;;
	esac
	echo 3 > /proc/sys/vm/drop_caches
	mount -t $fs "$dev" /mnt/t || fail "remount $fs"
	(cd /mnt/t && md5sum -c -s /tmp/sums.$fs) || fail "checksums differ after remount"
	echo "files=$(wc -l < /tmp/sums.$fs) fs=$fs verified"
	umount /mnt/t
	ssdctl check "$dev" || fail "FTL check after $fs"
	print_stats "$dev" "$fs"
done
ssdctl destroy fs || fail "destroy"
rmmod ssdemu || fail "rmmod"
echo "filesystems ok"
