#!/usr/bin/python3
"""The Wayland tests' Qt 5 application (Debian's python3-pyqt5; QT_QPA_PLATFORM=wayland, qtwayland5).
A window "Qt5 test", 400x300, with a label, the push button "Qt press" (pressing it renames it
"Qt pressed N"), and a line edit named "Qt entry". Prints "ready" once shown. On GNOME, Qt 5 draws
its own title bar (its Bradient decoration) inside the Wayland surface: the tests measure it."""
import sys
from PyQt5.QtWidgets import QApplication, QWidget, QPushButton, QVBoxLayout, QLabel, QLineEdit

app = QApplication(sys.argv)
win = QWidget()
win.setWindowTitle("Qt5 test")
win.resize(400, 300)
layout = QVBoxLayout(win)
layout.addWidget(QLabel("Qt 5 target"))
button = QPushButton("Qt press")
presses = [0]
def pressed():
    presses[0] += 1
    button.setText("Qt pressed %d" % presses[0])
button.clicked.connect(pressed)
layout.addWidget(button)
entry = QLineEdit()
entry.setAccessibleName("Qt entry")
layout.addWidget(entry)
win.show()
print("ready", flush=True)
sys.exit(app.exec_())
